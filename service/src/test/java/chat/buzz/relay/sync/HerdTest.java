package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.scopeFilter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A thousand fresh keys from one address subscribe to one big channel at once: a subscriber that is
 * already live still gets its change before most of the herd has its snapshot, and once the herd has
 * gone the relay's threads are back near their idle count.
 */
@IntegrationTest
class HerdTest {
    private static final int HERD = 1_000;
    private static final int HEADS = 60;

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("sync.maxConnectionsPerAddress", "2000"),
            ConfigOverride.config("sync.maxConnections", "2000"),
            ConfigOverride.config("sync.maxUnauthenticatedPerAddress", "2000"),
            ConfigOverride.config("sync.maxUnauthenticatedConnections", "2000"),
            ConfigOverride.config("sync.queueFrames", "256"),
            // One chunk per snapshot: on one shared queue, a live change would wait for every snapshot.
            ConfigOverride.config("sync.snapshotChunk", "200"),
            ConfigOverride.config("sync.snapshotTimeoutSeconds", "600"),
            // Jetty's default is a minute; the point is that idle threads go, not how soon.
            ConfigOverride.config("server.idleThreadTimeout", "5 seconds"));

    @Test
    void aLiveSubscriberIsServedBeforeTheHerdsSnapshotsAndThreadsReturnToIdle() throws Exception {
        NostrKeys owner = NostrKeys.generate();
        UUID channel = BigSnapshots.openChannel(RELAY, owner);
        for (int i = 0; i < HEADS; i++) {
            BigSnapshots.writeArtifact(RELAY, owner, channel, "h".repeat(500));
        }
        String filter = scopeFilter(Set.of(channel));
        try (SyncSocket live = SyncSocket.connect(RELAY.baseUrl())) {
            live.authenticateOk(NostrKeys.generate());
            live.subscribe("live", filter);
            live.awaitEose("live");
            long[] quiet = new long[3];
            for (int i = 0; i < quiet.length; i++) {
                quiet[i] = liveLatencyNanos(live, owner, channel);
            }
            int idleThreads = relayThreads();

            List<SyncSocket> herd = new ArrayList<>();
            ExecutorService senders = Executors.newFixedThreadPool(16);
            try {
                Callable<SyncSocket> join = () -> {
                    SyncSocket client = SyncSocket.connect(RELAY.baseUrl());
                    client.authenticateOk(NostrKeys.generate());
                    return client;
                };
                for (Future<SyncSocket> joining : senders.invokeAll(Collections.nCopies(HERD, join))) {
                    herd.add(joining.get());
                }
                List<Future<?>> sent = new ArrayList<>();
                for (SyncSocket client : herd) {
                    sent.add(senders.submit(() -> client.subscribe("herd", filter)));
                }
                for (Future<?> request : sent) {
                    request.get();
                }
                long start = System.nanoTime();
                UUID d = BigSnapshots.writeArtifact(RELAY, owner, channel, "live");
                live.awaitMessage(m -> isHead(m, d));
                long duringHerd = System.nanoTime() - start;
                long herdEoses = herd.stream().filter(c -> c.hasEose("herd")).count();

                System.out.printf(
                        "live latency without the herd: %s ms; with %d subscribers taking snapshots: %d ms"
                                + " (the herd had %d of %d EOSEs then)%n",
                        Arrays.toString(
                                Arrays.stream(quiet).map(n -> n / 1_000_000).toArray()),
                        HERD,
                        duringHerd / 1_000_000,
                        herdEoses,
                        HERD);
                assertThat(herdEoses)
                        .as("the live change arrived before most of the herd's snapshots had finished")
                        .isLessThan(HERD / 2);

                await().atMost(Duration.ofMinutes(5)).until(() -> herd.stream().allMatch(c -> c.hasEose("herd")));
                assertThat(herd).allMatch(c -> c.store("herd").size() >= HEADS);
                System.out.printf("threads: %d idle, %d with the herd%n", idleThreads, relayThreads());
            } finally {
                herd.forEach(SyncSocket::close);
                senders.shutdownNow();
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> RELAY.gauge("buzz.sync.connections") == 1);
            await().atMost(Duration.ofSeconds(90)).until(() -> relayThreads() <= idleThreads + 10);
            System.out.printf("threads after the herd left: %d%n", relayThreads());
            UUID after = BigSnapshots.writeArtifact(RELAY, owner, channel, "after");
            live.awaitMessage(m -> isHead(m, after));
        }
    }

    private static long liveLatencyNanos(SyncSocket live, NostrKeys owner, UUID channel) {
        long start = System.nanoTime();
        UUID d = BigSnapshots.writeArtifact(RELAY, owner, channel, "quiet");
        live.awaitMessage(m -> isHead(m, d));
        return System.nanoTime() - start;
    }

    private static boolean isHead(com.fasterxml.jackson.databind.JsonNode message, UUID d) {
        return SyncSocket.verb(message).equals("EVENT") && d.toString().equals(SyncSocket.tag(message.get(2), "d"));
    }

    /** Threads of this JVM but the JDK HTTP client's, which belong to the test's own WebSockets. */
    private static int relayThreads() {
        return (int) Arrays.stream(ManagementFactory.getThreadMXBean().dumpAllThreads(false, false))
                .filter(t -> !t.getThreadName().startsWith("HttpClient"))
                .count();
    }
}
