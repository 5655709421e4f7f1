package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.noScope;
import static chat.buzz.relay.sync.World.scopeFilter;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Membership changes that decide nothing a reader syncs (PROTOCOL 4.2) send its live subscription
 * nothing: joining or leaving an open listed channel, and a new role in a channel it is a member of
 * (roles decide what a member may write, not what it reads; the channel's admins list still changes).
 * No grant stream re-sends what the reader holds.
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
        for (Set<UUID> scope : List.of(Set.<UUID>of(), Set.of(listed))) {
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

    @Test
    void aMemberMadeAdminIsSentNoArtifactAgainAndTheAdminsListChanges() {
        UUID channel = world.channel(alice, false, false, false);
        world.add(alice, channel, bob.publicKeyHex());
        for (int i = 0; i < 3; i++) {
            world.create(alice, channel);
        }
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(bob);
            client.subscribe("tasks", scopeFilter(noScope()));
            client.awaitEose("tasks");
            client.subscribe("meta", "{\"kinds\":[" + Kinds.CHANNEL_ADMINS + "]}");
            client.awaitEose("meta");
            int afterSnapshots = client.received().size();

            Replies.accepted(RELAY.client()
                    .publish(alice, Nostr.membership(alice, Kinds.ADD_MEMBER, channel, bob.publicKeyHex(), "admin")));
            client.awaitMessage(frame -> framesOf(frame, "meta")
                    && frame.get(2).get("kind").asInt() == Kinds.CHANNEL_ADMINS
                    && hasTag(frame.get(2), Tags.MEMBER, bob.publicKeyHex(), "admin"));
            UUID next = world.create(alice, channel);
            JsonNode nextFrame = client.awaitMessage(frame ->
                    framesOf(frame, "tasks") && next.toString().equals(SyncSocket.tag(frame.get(2), Tags.ARTIFACT_ID)));
            assertThat(client
                            .received()
                            .subList(afterSnapshots, client.received().size())
                            .stream()
                            .filter(frame -> framesOf(frame, "tasks"))
                            .toList())
                    .as("the artifact subscription's frames after the role change")
                    .containsExactly(nextFrame);
        }
    }

    private static boolean hasTag(JsonNode event, String... values) {
        for (JsonNode tag : event.get("tags")) {
            List<String> strings = new java.util.ArrayList<>();
            tag.forEach(element -> strings.add(element.asText()));
            if (strings.equals(List.of(values))) {
                return true;
            }
        }
        return false;
    }

    private static boolean framesOf(JsonNode frame, String subscription) {
        return verb(frame).equals("EVENT") && frame.get(1).asText().equals(subscription);
    }
}
