package chat.buzz.relay.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mode "current" under load: its statement budget and its own bulkhead, shared fairly between callers.
 * A read is held inside the database by a table lock another connection takes, never by sleeping.
 */
@IntegrationTest
class CurrentLimitsTest {
    private static final String READ = "[{\"artifact\":\"current\"}]";

    @Order(1)
    @RegisterExtension
    static final TestRelay TIGHT_BUDGET = TestRelay.create(
            ConfigOverride.config("current.maxConcurrentReads", "8"),
            ConfigOverride.config("current.maxConcurrentReadsPerCaller", "4"),
            ConfigOverride.config("current.retryAfterMinSeconds", "2"),
            ConfigOverride.config("current.retryAfterMaxSeconds", "4"),
            ConfigOverride.config("current.statementBudgetMillis", "300"));

    /** Two reads at a time, at most one per caller, and a budget long enough to hold a read. */
    @Order(2)
    @RegisterExtension
    static final TestRelay NARROW = TestRelay.anotherInstance(
            TIGHT_BUDGET,
            ConfigOverride.config("current.maxConcurrentReads", "2"),
            ConfigOverride.config("current.maxConcurrentReadsPerCaller", "1"),
            ConfigOverride.config("current.retryAfterMinSeconds", "7"),
            ConfigOverride.config("current.retryAfterMaxSeconds", "9"),
            ConfigOverride.config("current.statementBudgetMillis", "60000"));

    private final NostrKeys alice = NostrKeys.generate();
    private final NostrKeys bob = NostrKeys.generate();
    private final NostrKeys carol = NostrKeys.generate();

    @Test
    void anExhaustedStatementBudgetAnswersUnavailableWithRetryAfter() {
        RelayClient client = TIGHT_BUDGET.client();
        try (Handle blocker = TIGHT_BUDGET.jdbi().open()) {
            blocker.begin();
            blocker.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE");
            assertUnavailable(client.query(alice, READ), 2, 4);
            blocker.rollback();
        }
        assertThat(client.query(alice, READ).status()).isEqualTo(200);
    }

    @Test
    void oneCallerGetsAtMostItsShareAndAFullBulkheadTurnsEveryoneAway() throws Exception {
        RelayClient client = NARROW.client();
        try (Handle blocker = TIGHT_BUDGET.jdbi().open()) {
            blocker.begin();
            blocker.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE");
            CompletableFuture<Reply> alicesRead = CompletableFuture.supplyAsync(() -> client.query(alice, READ));
            awaitReadsBlockedOnLock(1);

            assertUnavailable(client.query(alice, READ), 7, 9);
            CompletableFuture<Reply> bobsRead = CompletableFuture.supplyAsync(() -> client.query(bob, READ));
            awaitReadsBlockedOnLock(2);
            assertUnavailable(client.query(carol, READ), 7, 9);

            blocker.rollback();
            assertThat(alicesRead.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(bobsRead.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
        assertThat(client.query(alice, READ).status())
                .as("permits are given back")
                .isEqualTo(200);
        assertThat(client.query(carol, READ).status()).isEqualTo(200);
    }

    private static void assertUnavailable(Reply reply, int minRetryAfter, int maxRetryAfter) {
        assertThat(reply.status()).as("%s", reply).isEqualTo(503);
        assertThat(reply.error()).startsWith("unavailable: ");
        assertThat(reply.json().size()).as("the JSON error shape of current").isEqualTo(1);
        assertThat(Integer.parseInt(
                        reply.response().headers().firstValue("Retry-After").orElseThrow()))
                .isBetween(minRetryAfter, maxRetryAfter);
    }

    private static void awaitReadsBlockedOnLock(int reads) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> TIGHT_BUDGET
                                .jdbi()
                                .withHandle(handle -> handle.createQuery("""
                        SELECT count(*) FROM pg_stat_activity
                        WHERE wait_event_type = 'Lock' AND query LIKE '%FROM artifact_heads a%'""")
                                        .mapTo(Integer.class)
                                        .one())
                        >= reads);
    }
}
