package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.Replies.accepted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A removal judged late, over WebSocket: the subscriber holds X from private channel P; X moves to a
 * private channel the subscriber cannot read and then the subscriber is removed from P, and both
 * changes are handled only after the removal committed. The subscriber must still be told that X left,
 * because a change is judged against the head as it is when handled, not as the change saw it.
 */
@IntegrationTest
class LateRemovalTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    /** Sorts before every random id, so the snapshot delivers X before it stalls on the bulky heads. */
    private static final UUID FIRST_IN_SNAPSHOT = UUID.fromString("00000000-0000-4000-8000-000000000001");

    private final RelayClient relay = RELAY.client();
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();
    private final World world = new World(RELAY::client);

    @Test
    void aMoveHandledAfterTheReadersRemovalStillRemovesTheArtifact() {
        UUID listed = world.bulkyListedChannel(owner, 300);
        UUID held = world.channel(owner, false, false, false);
        UUID elsewhere = world.channel(owner, false, false, false);
        world.add(owner, held, reader.publicKeyHex());
        Event created = Nostr.revision(owner, FIRST_IN_SNAPSHOT, held, "create", null, "held by the reader");
        accepted(relay.publish(owner, created));

        try (SyncSocket subscriber = SyncSocket.connect(RELAY.baseUrl())) {
            subscriber.authenticateOk(reader);
            // The snapshot is stuck on the paused client, so both changes below wait until it ends.
            World.subscribeWithStalledSnapshot(RELAY, subscriber, "s");
            accepted(relay.publish(
                    owner, Nostr.revision(owner, FIRST_IN_SNAPSHOT, elsewhere, "move", created.id(), "moved")));
            world.remove(owner, held, reader.publicKeyHex());
            subscriber.resume();
            subscriber.awaitEose("s");
            assertThat(subscriber.received().toString())
                    .as("the snapshot delivered X")
                    .contains(created.id());

            UUID marker = world.create(owner, listed);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> subscriber.store("s").containsKey(marker.toString()));
            assertThat(subscriber.store("s")).doesNotContainKey(FIRST_IN_SNAPSHOT.toString());
        }
    }
}
