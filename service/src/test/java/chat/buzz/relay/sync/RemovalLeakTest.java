package chat.buzz.relay.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A removal marker names in {@code h} only a channel that is in the subscriber's D now (not merely
 * readable: an unlisted open channel is readable by anyone who knows its id), and goes only to a
 * subscriber that could have held the artifact (PROTOCOL 5).
 */
@IntegrationTest
class RemovalLeakTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();
    private final World world = new World(RELAY::client);

    @Test
    void aRemovalHandledLateNeverNamesThePrivateChannelTheArtifactWasEditedIn() {
        UUID listed = world.bulkyListedChannel(owner, 300);
        UUID secret = world.channel(owner, false, false, false);
        UUID unlisted = world.channel(owner, true, true, false);
        UUID d = world.create(owner, secret);

        try (SyncSocket subscriber = SyncSocket.connect(RELAY.baseUrl())) {
            subscriber.authenticateOk(reader);
            // The snapshot is stuck on the paused client, so both changes below queue and are handled after it.
            World.subscribeWithStalledSnapshot(RELAY, subscriber, "s");
            world.update(owner, d);
            world.move(owner, d, unlisted);
            subscriber.resume();
            subscriber.awaitEose("s");
            UUID marker = world.create(owner, listed);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> subscriber.store("s").containsKey(marker.toString()));

            List<JsonNode> naming = subscriber.received().stream()
                    .filter(frame -> frame.toString().contains(secret.toString()))
                    .toList();
            assertThat(naming)
                    .as("frames naming private channel %s, which the subscriber cannot read", secret)
                    .isEmpty();
        }
    }

    @Test
    void anUnscopedSubscriberHearsNothingOfArtifactsItCouldNeverHold() {
        UUID listed = world.channel(owner, true, false, false);
        UUID unlisted = world.channel(owner, true, true, false);
        UUID ttl = world.channel(owner, true, false, true);
        try (SyncSocket subscriber = SyncSocket.connect(RELAY.baseUrl())) {
            subscriber.authenticateOk(reader);
            subscriber.subscribe("s", World.scopeFilter(World.noScope()));
            subscriber.awaitEose("s");

            UUID inUnlisted = world.create(owner, unlisted);
            world.update(owner, inUnlisted);
            UUID inTtl = world.create(owner, ttl);
            world.update(owner, inTtl);
            UUID marker = world.create(owner, listed);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> subscriber.store("s").containsKey(marker.toString()));

            List<JsonNode> removals = removalMarkers(subscriber);
            assertThat(removals)
                    .as("removals of an unlisted channel's and a TTL channel's artifacts, which it could never hold")
                    .noneMatch(frame -> frame.toString().contains(inUnlisted.toString())
                            || frame.toString().contains(inTtl.toString()));
        }
    }

    @Test
    void aRemovedMembersRemovalNeverNamesTheUnlistedChannelTheArtifactMovedTo() {
        UUID listed = world.channel(owner, true, false, false);
        UUID secret = world.channel(owner, false, false, false);
        UUID unlisted = world.channel(owner, true, true, false);
        world.add(owner, secret, reader.publicKeyHex());
        UUID d = world.create(owner, secret);

        try (SyncSocket subscriber = SyncSocket.connect(RELAY.baseUrl())) {
            subscriber.authenticateOk(reader);
            subscriber.subscribe("s", World.scopeFilter(World.noScope()));
            subscriber.awaitEose("s");
            assertThat(subscriber.store("s")).containsKey(d.toString());

            world.remove(owner, secret, reader.publicKeyHex());
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !subscriber.store("s").containsKey(d.toString()));
            world.move(owner, d, unlisted);
            UUID marker = world.create(owner, listed);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> subscriber.store("s").containsKey(marker.toString()));

            List<JsonNode> removals = removalMarkers(subscriber);
            assertThat(removals).as("removals of the artifact").isNotEmpty();
            assertThat(removals)
                    .as("removal markers naming unlisted channel %s", unlisted)
                    .noneMatch(frame -> namesChannel(frame.get(2), unlisted));
            assertThat(subscriber.received().toString())
                    .as("frames naming unlisted channel %s", unlisted)
                    .doesNotContain(unlisted.toString());
        }
    }

    private static List<JsonNode> removalMarkers(SyncSocket subscriber) {
        return subscriber.received().stream()
                .filter(frame -> SyncSocket.verb(frame).equals("EVENT")
                        && frame.get(2).get("kind").asInt() == Kinds.REMOVAL_MARKER)
                .toList();
    }

    private static boolean namesChannel(JsonNode event, UUID channel) {
        for (JsonNode tag : event.get("tags")) {
            if (tag.get(0).asText().equals(Tags.CHANNEL) && tag.get(1).asText().equals(channel.toString())) {
                return true;
            }
        }
        return false;
    }
}
