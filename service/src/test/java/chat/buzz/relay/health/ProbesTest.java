package chat.buzz.relay.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.database.Database;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestRelay;
import com.codahale.metrics.Counter;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Load-balancer probes: no token, any Host, nothing but the verdict. */
@IntegrationTest
class ProbesTest {
    private static final Duration PATIENCE = Duration.ofSeconds(10);

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
            // The verdict is refreshed at most once a second, so the change shows within one refresh.
            await().atMost(PATIENCE)
                    .untilAsserted(() -> assertThat(get(HealthServlet.READY_PATH, "localhost"))
                            .startsWith("HTTP/1.1 503")
                            .endsWith("{\"status\":\"not ready\"}"));
        } finally {
            jdbi.useHandle(h -> h.execute("UPDATE databasechangelog SET id = ? WHERE id = 'moved-away'", first));
        }
        await().atMost(PATIENCE)
                .untilAsserted(() ->
                        assertThat(get(HealthServlet.READY_PATH, "localhost")).startsWith("HTTP/1.1 200"));
    }

    @Test
    void theSchemaRolledBackToBeforeIncrementalIsStillEnoughToServe() {
        Set<String> required = RequiredSchema.of(Database.CHANGELOG);

        assertThat(required)
                .contains("0001-create-communities::buzz", "0100-create-relay-instances::buzz")
                .as("a rollback to the tag removes the tagging changeset's own ledger row")
                .doesNotContain("0075-tag-before-incremental::buzz", "0076-add-artifact-modified-at::buzz");
    }

    @Test
    void aDisconnectedChangeFeedOrAnUnreachableDatabaseIsNotReady() {
        Set<String> required = RequiredSchema.of(Database.CHANGELOG);

        assertThat(readiness(RELAY.jdbi(), required, () -> true).isReady()).isTrue();
        assertThat(readiness(RELAY.jdbi(), required, () -> false).isReady()).isFalse();
        Jdbi nowhere = Jdbi.create("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2", "postgres", "");
        assertThat(readiness(nowhere, required, () -> true).isReady()).isFalse();
    }

    @Test
    void theDatabaseIsAskedAgainOnlyOnceTheLastAnswerIsASecondOld() {
        AtomicLong now = new AtomicLong();
        Counter checks = new Counter();
        Readiness readiness = new Readiness(
                RELAY.jdbi(), RequiredSchema.of(Database.CHANGELOG), () -> true, () -> false, checks, now::get);

        for (int i = 0; i < 50; i++) {
            assertThat(readiness.isReady()).isTrue();
        }
        assertThat(checks.getCount()).isEqualTo(1);
        now.addAndGet(Readiness.REFRESH.toNanos() - 1);
        assertThat(readiness.isReady()).isTrue();
        assertThat(checks.getCount()).isEqualTo(1);
        now.addAndGet(1);
        assertThat(readiness.isReady()).isTrue();
        assertThat(checks.getCount()).isEqualTo(2);
    }

    private static Readiness readiness(Jdbi jdbi, Set<String> required, BooleanSupplier changeFeed) {
        return new Readiness(jdbi, required, changeFeed, () -> false, new Counter());
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
