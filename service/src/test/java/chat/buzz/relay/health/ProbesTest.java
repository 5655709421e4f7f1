package chat.buzz.relay.health;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.database.Database;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestRelay;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Load-balancer probes: no token, any Host, nothing but the verdict. */
@IntegrationTest
class ProbesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    @Test
    void livenessAnswersWithoutTokenForAnAddressThatIsNoCommunity() throws Exception {
        String reply = get(HealthServlet.LIVE_PATH, "10.1.2.3:8080");

        assertThat(reply).startsWith("HTTP/1.1 200").endsWith("{\"status\":\"live\"}");
    }

    @Test
    void readinessSaysReadyAndNothingElse() throws Exception {
        String reply = get(HealthServlet.READY_PATH, "10.1.2.3");

        assertThat(reply)
                .startsWith("HTTP/1.1 200")
                .contains("Cache-Control: no-store")
                .endsWith("{\"status\":\"ready\"}");
    }

    @Test
    void aMissingRequiredMigrationMakesTheInstanceNotReadyWithoutSayingWhich() throws Exception {
        Jdbi jdbi = RELAY.jdbi();
        String first = "0001-create-communities";
        jdbi.useHandle(h -> h.execute("UPDATE databasechangelog SET id = 'moved-away' WHERE id = ?", first));
        try {
            String reply = get(HealthServlet.READY_PATH, "localhost");
            assertThat(reply).startsWith("HTTP/1.1 503").endsWith("{\"status\":\"not ready\"}");
        } finally {
            jdbi.useHandle(h -> h.execute("UPDATE databasechangelog SET id = ? WHERE id = 'moved-away'", first));
        }
        assertThat(get(HealthServlet.READY_PATH, "localhost")).startsWith("HTTP/1.1 200");
    }

    @Test
    void theSchemaRolledBackToBeforeIncrementalIsStillEnoughToServe() {
        Set<String> required = RequiredSchema.of(Database.CHANGELOG);

        assertThat(required)
                .contains("0001-create-communities::buzz", "0075-tag-before-incremental::buzz")
                .doesNotContain("0076-add-artifact-modified-at::buzz");
    }

    @Test
    void aDisconnectedChangeFeedOrAnUnreachableDatabaseIsNotReady() {
        Set<String> required = RequiredSchema.of(Database.CHANGELOG);

        assertThat(new Readiness(RELAY.jdbi(), required, () -> true).isReady()).isTrue();
        assertThat(new Readiness(RELAY.jdbi(), required, () -> false).isReady()).isFalse();
        Jdbi nowhere = Jdbi.create("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2", "postgres", "");
        assertThat(new Readiness(nowhere, required, () -> true).isReady()).isFalse();
    }

    @Test
    void otherMethodsAreRefusedWithAJsonError() throws Exception {
        String reply = RawHttp.exchange(
                RELAY.baseUrl(),
                "POST " + HealthServlet.READY_PATH + " HTTP/1.1\r\n"
                        + "Host: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

        assertThat(reply)
                .startsWith("HTTP/1.1 405")
                .contains("Allow: GET, HEAD")
                .endsWith("{\"error\":\"method not allowed\"}");
    }

    private static String get(String path, String host) throws Exception {
        return RawHttp.exchange(
                RELAY.baseUrl(), "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    }
}
