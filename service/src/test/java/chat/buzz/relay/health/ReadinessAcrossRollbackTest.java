package chat.buzz.relay.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Readiness means "send me traffic": the schema runbook 06 leaves (rolled back to before-incremental,
 * gate off) is ready, the incremental schema's state is told apart on the admin port, a gate turned on
 * without its schema is not ready, and a flood of probes does not become a flood of queries.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@IntegrationTest
class ReadinessAcrossRollbackTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    @Test
    @Order(1)
    void aFloodOfProbesAsksTheDatabaseAtMostOnceASecond() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest probe = HttpRequest.newBuilder(URI.create(RELAY.baseUrl() + HealthServlet.READY_PATH))
                .build();
        long checksBefore = RELAY.counter(Readiness.CHECKS);
        long started = System.nanoTime();
        int probes = 400;
        for (int i = 0; i < probes; i++) {
            HttpResponse<String> reply = http.send(probe, HttpResponse.BodyHandlers.ofString());
            assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        long checks = RELAY.counter(Readiness.CHECKS) - checksBefore;

        assertThat(checks)
                .as("%d probes in %.1f s", probes, seconds)
                .isGreaterThanOrEqualTo(0)
                .isLessThanOrEqualTo((long) Math.ceil(seconds) + 1);
    }

    @Test
    @Order(2)
    void theSchemaRolledBackWithTheGateOffIsReadyAndTheAdminPortSaysWhatIsPending() throws Exception {
        AdminClient.Reply rollback = RELAY.admin()
                .task("rollback-incremental", Map.of("confirm", "yes", "reason", "readiness across a rollback"));
        assertThat(rollback.status()).as(rollback.body()).isEqualTo(200);
        assertThat(rollback.json().get("schemaRolledBack").asBoolean()).isTrue();

        await().atMost(PATIENCE).untilAsserted(() -> {
            JsonNode health = RELAY.admin().get("/healthcheck").json();
            assertThat(health.at("/" + IncrementalSchemaHealthCheck.NAME + "/message")
                            .asText())
                    .contains("incremental changesets pending")
                    .contains("gate is off");
        });
        JsonNode health = RELAY.admin().get("/healthcheck").json();
        assertThat(health.at("/" + IncrementalSchemaHealthCheck.NAME + "/healthy")
                        .asBoolean())
                .isTrue();
        assertThat(ready()).startsWith("HTTP/1.1 200").endsWith("{\"status\":\"ready\"}");
    }

    @Test
    @Order(3)
    void theGateForcedOnWithoutItsSchemaIsNotReady() {
        AdminClient.Reply on = RELAY.admin()
                .task(
                        "flag",
                        Map.of("gate", "incremental", "value", "on", "force", "true", "reason", "forced, schema gone"));
        assertThat(on.status()).as(on.body()).isEqualTo(200);
        try {
            await().atMost(PATIENCE).untilAsserted(() -> assertThat(ready()).startsWith("HTTP/1.1 503"));
            assertThat(RELAY.admin().get("/healthcheck").body()).contains("yet the incremental gate is on");
        } finally {
            RELAY.admin()
                    .task("flag", Map.of("gate", "incremental", "value", "off", "reason", "back to what is served"));
        }
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(ready()).startsWith("HTTP/1.1 200"));
    }

    private static String ready() throws Exception {
        return RawHttp.exchange(
                RELAY.baseUrl(),
                "GET " + HealthServlet.READY_PATH + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    }
}
