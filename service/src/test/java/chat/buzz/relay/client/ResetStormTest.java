package chat.buzz.relay.client;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.Backoff;
import chat.buzz.client.SessionReport;
import chat.buzz.client.SignedHttp;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.SyncClient;
import chat.buzz.client.SyncListener;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * 200 clients of one community reset at once against a bulkhead of 4: all converge, each waits the
 * Retry-After it was given before its next attempt, and the retries spread over the relay's range.
 * The histogram of retry times is printed for docs/benchmarks.md.
 */
@IntegrationTest
class ResetStormTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("incremental.maxConcurrentReads", "4"),
            ConfigOverride.config("incremental.retryAfterMinSeconds", "1"),
            ConfigOverride.config("incremental.retryAfterMaxSeconds", "6"));

    private static final int CLIENTS = 200;
    private static final int ARTIFACTS = 50;

    @TempDir
    Path directory;

    /** One wait of one client: when it was refused, what the relay asked, what the client slept. */
    record Wait(int client, long refusedAtNanos, Duration retryAfter, Duration delay, long sleptNanos) {}

    @Test
    void twoHundredClientsResetAtOnceAllConvergeWaitingWhatTheRelayAsked() throws Exception {
        Model model = new Model();
        ModelWriter writer = new ModelWriter(RELAY.client(), model);
        NostrKeys owner = NostrKeys.generate();
        UUID listed = writer.channel(owner, true, false, false);
        UUID toggled = writer.channel(owner, true, false, false);
        for (int i = 0; i < ARTIFACTS; i++) {
            writer.create(owner, listed);
        }
        ConcurrentLinkedQueue<Wait> waits = new ConcurrentLinkedQueue<>();
        List<SyncClient> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(client(i, waits));
        }
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<SessionReport> first = all(pool, clients, null);
            assertThat(first).allSatisfy(report -> assertThat(report.held()).isEqualTo(ARTIFACTS));
            waits.clear();

            Replies.accepted(RELAY.client()
                    .publish(owner, Nostr.editChannel(owner, toggled, tag(Tags.UNLISTED, "true"))));
            long stormStart = System.nanoTime();
            List<SessionReport> storm = all(pool, clients, new CountDownLatch(1));
            assertThat(storm).allSatisfy(report -> {
                assertThat(report.reset()).isTrue();
                assertThat(report.held()).isEqualTo(ARTIFACTS);
            });
            SyncClient.DigestAnswer relay = clients.get(0).digestRead();
            assertThat(clients)
                    .allSatisfy(c -> assertThat(c.store().digest().hex()).isEqualTo(relay.digest()));

            assertThat(waits).as("the bulkhead of 4 turned clients away").isNotEmpty();
            assertThat(waits).allSatisfy(wait -> {
                assertThat(wait.retryAfter())
                        .as("capacity refusals carry Retry-After")
                        .isNotNull();
                assertThat(wait.delay()).isEqualTo(wait.retryAfter());
                assertThat(wait.sleptNanos())
                        .isGreaterThanOrEqualTo(wait.delay().toNanos());
            });
            assertThat(waits.stream().map(Wait::retryAfter).distinct().count())
                    .as("jittered Retry-After")
                    .isGreaterThan(1);
            System.out.println(histogram(waits, stormStart));
        } finally {
            pool.shutdownNow();
            clients.forEach(SyncClient::close);
        }
    }

    private SyncClient client(int index, ConcurrentLinkedQueue<Wait> waits) {
        ThreadLocal<long[]> refused = ThreadLocal.withInitial(() -> new long[1]);
        ThreadLocal<Object[]> reason = new ThreadLocal<>();
        Backoff.Sleeper measuring = delay -> {
            long start = System.nanoTime();
            Thread.sleep(delay.toMillis());
            Object[] why = reason.get();
            waits.add(new Wait(index, refused.get()[0], (Duration) why[0], delay, System.nanoTime() - start));
        };
        Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10), 60, measuring, (r, d, e) -> {})
                .withListener((request, delay, error) -> {
                    refused.get()[0] = System.nanoTime();
                    reason.set(new Object[] {error.retryAfter().orElse(null)});
                });
        return new SyncClient(
                new SignedHttp(RELAY.baseUrl(), NostrKeys.generate()),
                SqliteStore.open(directory.resolve("client-" + index + ".db")),
                List.of(),
                backoff,
                new SyncListener() {});
    }

    private static List<SessionReport> all(ExecutorService pool, List<SyncClient> clients, CountDownLatch start)
            throws Exception {
        List<Future<SessionReport>> running = new ArrayList<>();
        for (SyncClient client : clients) {
            running.add(pool.submit(() -> {
                if (start != null) {
                    start.await();
                }
                return client.sync(false);
            }));
        }
        if (start != null) {
            start.countDown();
        }
        List<SessionReport> reports = new ArrayList<>();
        for (Future<SessionReport> future : running) {
            reports.add(future.get(10, TimeUnit.MINUTES));
        }
        return reports;
    }

    /** Retries per second after the reset, and the Retry-After values the relay handed out. */
    private static String histogram(ConcurrentLinkedQueue<Wait> waits, long stormStart) {
        Map<Long, Integer> bySecond = new TreeMap<>();
        Map<Long, Integer> byRetryAfter = new TreeMap<>();
        for (Wait wait : waits) {
            long retriedAt = (wait.refusedAtNanos() + wait.sleptNanos() - stormStart) / 1_000_000_000L;
            bySecond.merge(retriedAt, 1, Integer::sum);
            byRetryAfter.merge(wait.retryAfter().toSeconds(), 1, Integer::sum);
        }
        StringBuilder out = new StringBuilder("reset storm: " + CLIENTS + " clients, " + waits.size() + " refusals\n");
        out.append("retries by second after the reset:\n");
        bySecond.forEach((second, count) ->
                out.append(String.format("  %3d s %4d %s%n", second, count, "#".repeat((count + 4) / 5))));
        out.append("Retry-After handed out:\n");
        byRetryAfter.forEach((seconds, count) -> out.append(String.format("  %3d s %4d%n", seconds, count)));
        return out.toString();
    }
}
