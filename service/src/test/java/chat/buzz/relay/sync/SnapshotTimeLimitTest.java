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
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A snapshot that outlives sync.snapshotTimeoutSeconds ends with the documented CLOSED; the connection stays. */
@IntegrationTest
class SnapshotTimeLimitTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("sync.queueFrames", "8"),
            ConfigOverride.config("sync.snapshotTimeoutSeconds", "3"));

    private final NostrKeys alice = NostrKeys.generate();

    @Test
    void aSnapshotOverItsTimeLimitIsClosedWithAnErrorAndTheClientCanSubscribeAgain() {
        UUID big = BigSnapshots.openChannelWithBigSnapshot(RELAY, alice);
        try (SyncSocket reader = SyncSocket.connect(RELAY.baseUrl())) {
            reader.authenticateOk(NostrKeys.generate());
            reader.pause();
            reader.subscribe("big", scopeFilter(Set.of(big)));
            await().atMost(Duration.ofSeconds(30)).until(() -> RELAY.counter("buzz.sync.snapshot-timeouts") == 1);
            assertThat(RELAY.gauge("buzz.sync.snapshots-active")).isZero();

            reader.resume();
            assertThat(reader.awaitClosed("big"))
                    .isEqualTo(
                            "error: the snapshot did not finish within 3 s; read faster or narrow #h, then subscribe again");
            assertThat(reader.hasEose("big")).isFalse();
            assertThat(reader.store("big").size())
                    .as("what arrived before the limit")
                    .isLessThan(BigSnapshots.HEADS);

            UUID small = BigSnapshots.openChannel(RELAY, alice);
            BigSnapshots.writeArtifact(RELAY, alice, small, "small");
            reader.subscribe("small", scopeFilter(Set.of(small)));
            reader.awaitEose("small");
            assertThat(reader.store("small")).hasSize(1);
            assertThat(reader.received()).noneMatch(m -> verb(m).equals("NOTICE"));
            assertThat(reader.closedConnection()).isNotDone();
        }
    }
}
