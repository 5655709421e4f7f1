package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.scopeFilter;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Readers that stop reading in the middle of a large snapshot, or replace their subscription in a
 * loop: they may only slow themselves. Two workers make the shared pool easy to exhaust.
 */
@IntegrationTest
class HostileReaderTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("sync.workerThreads", "2"),
            ConfigOverride.config("sync.maxConnectionsPerPubkey", "4"),
            ConfigOverride.config("sync.queueFrames", "8"),
            ConfigOverride.config("sync.snapshotTimeoutSeconds", "120"));

    private static final NostrKeys alice = NostrKeys.generate();
    private static UUID bigChannel;

    private final List<SyncSocket> clients = new ArrayList<>();

    @AfterEach
    void disconnect() {
        clients.forEach(SyncSocket::close);
    }

    @Test
    void pausedReadersOfOneKeyHoldNoWorkerAndDoNotDelayAnotherKey() {
        UUID big = bigChannel();
        NostrKeys hostile = NostrKeys.generate();
        int paused = 4;
        for (int i = 0; i < paused; i++) {
            SyncSocket client = connect();
            client.authenticateOk(hostile);
            client.pause();
            client.subscribe("big", scopeFilter(Set.of(big)));
        }
        // Every stalled snapshot has started and none can finish, yet no worker thread is spent on them.
        await().atMost(Duration.ofSeconds(40))
                .until(() -> gauge("buzz.sync.snapshots-active") == paused && gauge("buzz.sync.workers-busy") == 0);

        UUID small = BigSnapshots.openChannel(RELAY, alice);
        BigSnapshots.writeArtifact(RELAY, alice, small, "small");
        SyncSocket other = connect();
        other.authenticateOk(NostrKeys.generate());
        other.subscribe("other", scopeFilter(Set.of(small)));
        other.awaitEose("other");
        assertThat(other.store("other")).hasSize(1);
        assertThat(gauge("buzz.sync.snapshots-active"))
                .as("the stalled snapshots are still waiting")
                .isEqualTo(paused);
    }

    @Test
    void aReqLoopWithOneSubscriptionIdLeavesOneSnapshotRunning() {
        UUID big = bigChannel();
        SyncSocket looping = connect();
        looping.authenticateOk(NostrKeys.generate());
        looping.pause();
        for (int i = 0; i < 40; i++) {
            looping.subscribe("loop", scopeFilter(Set.of(big)));
        }
        await().atMost(Duration.ofSeconds(40))
                .until(() -> gauge("buzz.sync.snapshots-active") == 1 && gauge("buzz.sync.workers-busy") == 0);

        looping.resume();
        looping.awaitEose("loop");
        assertThat(looping.store("loop")).hasSize(BigSnapshots.HEADS);
        assertThat(looping.received()).noneMatch(m -> verb(m).equals("CLOSED") || verb(m).equals("NOTICE"));
    }

    private SyncSocket connect() {
        SyncSocket client = SyncSocket.connect(RELAY.baseUrl());
        clients.add(client);
        return client;
    }

    private UUID bigChannel() {
        synchronized (HostileReaderTest.class) {
            if (bigChannel == null) {
                bigChannel = BigSnapshots.openChannelWithBigSnapshot(RELAY, alice);
            }
            return bigChannel;
        }
    }

    private static long gauge(String name) {
        return RELAY.gauge(name);
    }
}
