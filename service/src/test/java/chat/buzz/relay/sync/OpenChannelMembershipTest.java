package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.scopeFilter;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Membership of an open listed channel decides nothing a reader syncs (PROTOCOL 4.2), so a live
 * subscription hears nothing when its reader joins or leaves one: no grant stream re-sends what it holds.
 */
@IntegrationTest
class OpenChannelMembershipTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    private final NostrKeys alice = NostrKeys.generate();
    private final NostrKeys bob = NostrKeys.generate();
    private final World world = new World(RELAY::client);

    @Test
    void joiningAndLeavingAnOpenListedChannelSendNothingAgain() {
        UUID listed = world.channel(alice, true, false, false);
        for (int i = 0; i < 3; i++) {
            world.create(alice, listed);
        }
        for (Set<UUID> scope : java.util.List.of(Set.<UUID>of(), Set.of(listed))) {
            try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
                client.authenticateOk(bob);
                client.subscribe("s", scopeFilter(scope));
                client.awaitEose("s");
                int afterSnapshot = client.received().size();
                world.join(bob, listed);
                world.leave(bob, listed);
                UUID next = world.create(alice, listed);
                JsonNode nextFrame = client.awaitMessage(frame -> verb(frame).equals("EVENT")
                        && next.toString().equals(SyncSocket.tag(frame.get(2), Tags.ARTIFACT_ID)));
                assertThat(client.received()
                                .subList(afterSnapshot, client.received().size()))
                        .as("frames after the snapshot, scope %s", scope)
                        .containsExactly(nextFrame);
            }
        }
    }
}
