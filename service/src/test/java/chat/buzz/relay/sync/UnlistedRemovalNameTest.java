package chat.buzz.relay.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncClient;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A live removal names in {@code h} only a channel that is in the subscriber's D now (PROTOCOL 5):
 * an artifact the subscriber could have held and that moved on into an unlisted open channel it is
 * not a member of must not hand it that channel's id, although the channel is readable by anyone.
 */
@IntegrationTest
class UnlistedRemovalNameTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();
    private final World world = new World(RELAY::client);

    @Test
    void aRemovedMembersRemovalNeverNamesTheUnlistedChannelTheArtifactMovedTo() {
        UUID listed = world.channel(owner, true, false, false);
        UUID secret = world.channel(owner, false, false, false);
        UUID unlisted = world.channel(owner, true, true, false);
        world.add(owner, secret, reader.publicKeyHex());
        UUID d = world.create(owner, secret);

        try (SyncClient subscriber = SyncClient.connect(RELAY.baseUrl())) {
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

            List<JsonNode> removals = subscriber.received().stream()
                    .filter(frame -> SyncClient.verb(frame).equals("EVENT")
                            && frame.get(2).get("kind").asInt() == Kinds.REMOVAL_MARKER)
                    .toList();
            assertThat(removals).as("removals of the artifact").isNotEmpty();
            assertThat(removals)
                    .as("removal markers naming unlisted channel %s", unlisted)
                    .noneMatch(frame -> namesChannel(frame.get(2), unlisted));
            assertThat(subscriber.received().toString())
                    .as("frames naming unlisted channel %s", unlisted)
                    .doesNotContain(unlisted.toString());
        }
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
