package chat.buzz.relay.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The operator's /healthcheck says when the WebSocket change feed's LISTEN connection is reconnecting. */
@IntegrationTest
class ChangeFeedHealthTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    @Test
    void theChangeFeedIsUnhealthyWhileItsListenConnectionReconnects() {
        await().atMost(PATIENCE).until(() -> changeFeed().get("healthy").asBoolean());

        // New connections refused, the listener's killed: it keeps retrying, and the check says so.
        try (Handle handle = RELAY.jdbi().open()) {
            TestDatabases.allowConnections(RELAY.databaseUrl(), false);
            int killed = handle.createQuery("""
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE query LIKE 'LISTEN %' AND datname = current_database()
                    """).mapTo(Integer.class).one();
            assertThat(killed).isEqualTo(1);
            JsonNode reconnecting = await().atMost(PATIENCE)
                    .until(
                            ChangeFeedHealthTest::changeFeed,
                            check -> !check.get("healthy").asBoolean());
            assertThat(reconnecting.get("message").asText()).contains("reconnecting");
        } finally {
            TestDatabases.allowConnections(RELAY.databaseUrl(), true);
        }
        await().atMost(PATIENCE).until(() -> changeFeed().get("healthy").asBoolean());
    }

    private static JsonNode changeFeed() {
        AdminClient.Reply reply = RELAY.admin().get("/healthcheck");
        JsonNode check = reply.json().get(ChangeFeedHealthCheck.NAME);
        assertThat(check).as(reply.body()).isNotNull();
        return check;
    }
}
