package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.scopeFilter;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that stops reading: bulk streams wait for it (backpressure), live updates do not, and
 * once its small queue is full it is told why and disconnected while other connections carry on.
 */
@IntegrationTest
class SlowConsumerTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("sync.queueFrames", "8"),
            ConfigOverride.config("sync.snapshotTimeoutSeconds", "120"));

    private static final int MAX_WRITES = 2_000;

    private final NostrKeys alice = NostrKeys.generate();

    @Test
    void aStalledLiveConsumerIsToldWhyAndDisconnectedWhileOthersKeepWorking() {
        UUID channel = BigSnapshots.openChannel(RELAY, alice);
        try (SyncSocket slow = SyncSocket.connect(RELAY.baseUrl());
                SyncSocket fast = SyncSocket.connect(RELAY.baseUrl())) {
            slow.authenticateOk(NostrKeys.generate());
            fast.authenticateOk(NostrKeys.generate());
            slow.subscribe("s", scopeFilter(Set.of(channel)));
            fast.subscribe("f", scopeFilter(Set.of(channel)));
            slow.awaitEose("s");
            fast.awaitEose("f");
            slow.pause();

            int written = 0;
            while (counter("buzz.sync.disconnected-too-slow") == 0) {
                assertThat(written)
                        .as("writes before the relay gave up on the stalled client")
                        .isLessThan(MAX_WRITES);
                BigSnapshots.writeBigArtifact(RELAY, alice, channel);
                written++;
            }
            int total = written;
            await().atMost(Duration.ofSeconds(60)).until(() -> fast.store("f").size() == total);

            slow.resume();
            // Disconnected: normally a 1008 close; a reset is possible once the relay gives up on the socket.
            assertThat(slow.closedConnection()).succeedsWithin(Duration.ofSeconds(30));
            List<JsonNode> received = slow.received();
            JsonNode last = received.get(received.size() - 1);
            assertThat(verb(last)).isEqualTo("NOTICE");
            assertThat(last.get(1).asText()).startsWith("too slow: ");
            assertThat(slow.store("s").size())
                    .as("what reached the stalled client")
                    .isLessThan(total);
            assertThat(fast.closedConnection()).isNotDone();
        }
    }

    @Test
    void aSnapshotWaitsForAStalledReaderInsteadOfBufferingOrDropping() {
        long waitsBefore = counter("buzz.sync.backpressure-waits");
        UUID channel = BigSnapshots.openChannelWithBigSnapshot(RELAY, alice);
        try (SyncSocket reader = SyncSocket.connect(RELAY.baseUrl())) {
            reader.authenticateOk(NostrKeys.generate());
            reader.pause();
            reader.subscribe("snap", scopeFilter(Set.of(channel)));
            await().atMost(Duration.ofSeconds(60)).until(() -> counter("buzz.sync.backpressure-waits") > waitsBefore);
            reader.resume();
            reader.awaitEose("snap");
            assertThat(reader.store("snap")).hasSize(BigSnapshots.HEADS);
            assertThat(reader.closedConnection()).isNotDone();
        }
    }

    private static long counter(String name) {
        return RELAY.counter(name);
    }
}
