package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.noScope;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A join sends a channel's artifacts again only where the subscriber may lack them: where membership
 * decides discovery now, or where the channel's settings changed after the subscriber first joined it
 * within its window (PROTOCOL 5). A channel listed before the join was judged for the subscriber as a
 * non-member, which sent it everything then; the join repeats none of it.
 */
@IntegrationTest
class JoinAfterPolicyChangeTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("gates.scopedPolicy", "true"));

    private final NostrKeys alice = NostrKeys.generate();
    private final NostrKeys bob = NostrKeys.generate();
    private final World world = new World(RELAY::client);

    @Test
    void aJoinOfAChannelListedBeforeItRepeatsNothing() {
        UUID unlisted = world.channel(alice, true, true, false);
        Set<String> artifacts = createThree(unlisted);
        try (SyncSocket client = subscribedUnscoped()) {
            assertThat(artifactsIn(client.received())).doesNotContainAnyElementsOf(artifacts);

            world.edit(alice, unlisted, null, false, null);
            artifacts.forEach(d -> awaitArtifact(client, d));
            int afterListing = client.received().size();
            world.join(bob, unlisted);
            UUID next = world.create(alice, unlisted);
            JsonNode nextFrame = awaitArtifact(client, next.toString());
            assertThat(client.received().subList(afterListing, client.received().size()))
                    .as("frames after the listing's entries: the join sent none of them again")
                    .containsExactly(nextFrame);
        }
    }

    @Test
    void aJoinThenAListingLeavesTheSubscriberHoldingTheChannel() {
        UUID unlisted = world.channel(alice, true, true, false);
        Set<String> artifacts = createThree(unlisted);
        try (SyncSocket client = subscribedUnscoped()) {
            world.join(bob, unlisted);
            world.edit(alice, unlisted, null, false, null);
            UUID next = world.create(alice, unlisted);
            artifacts.add(next.toString());
            awaitArtifact(client, next.toString());
            assertThat(artifactsIn(client.received())).containsAll(artifacts);
        }
    }

    private Set<String> createThree(UUID channel) {
        Set<String> artifacts = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            artifacts.add(world.create(alice, channel).toString());
        }
        return artifacts;
    }

    /** Bob, subscribed without a scope, after the snapshot's EOSE. */
    private SyncSocket subscribedUnscoped() {
        SyncSocket client = SyncSocket.connect(RELAY.baseUrl());
        client.authenticateOk(bob);
        client.subscribe("s", scopeFilter(noScope()));
        client.awaitEose("s");
        return client;
    }

    private static JsonNode awaitArtifact(SyncSocket client, String d) {
        return client.awaitMessage(
                frame -> verb(frame).equals("EVENT") && d.equals(SyncSocket.tag(frame.get(2), Tags.ARTIFACT_ID)));
    }

    private static Set<String> artifactsIn(List<JsonNode> frames) {
        Set<String> ds = new HashSet<>();
        for (JsonNode frame : frames) {
            if (verb(frame).equals("EVENT")) {
                String d = SyncSocket.tag(frame.get(2), Tags.ARTIFACT_ID);
                if (d != null) {
                    ds.add(d);
                }
            }
        }
        return ds;
    }
}
