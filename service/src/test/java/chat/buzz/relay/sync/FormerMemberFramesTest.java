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
 * A subscriber removed from a private channel gets one removal marker for each artifact it held, and then
 * no frame at all about them, however often the channel's artifacts change (PROTOCOL 5: a removal goes
 * only to a subscriber that could hold the artifact; docs/security.md). A later artifact of an open
 * channel marks the point by which every earlier change was handled.
 */
@IntegrationTest
class FormerMemberFramesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();
    private final World world = new World(RELAY::client);

    @Test
    void afterItsRemovalsAFormerMemberHearsNothingOfTheChannelsChanges() {
        UUID listed = world.channel(owner, true, false, false);
        UUID secret = world.channel(owner, false, false, false);
        world.add(owner, secret, reader.publicKeyHex());
        UUID x = world.create(owner, secret);
        UUID y = world.create(owner, secret);
        UUID z = world.create(owner, secret);

        try (SyncSocket subscriber = SyncSocket.connect(RELAY.baseUrl())) {
            subscriber.authenticateOk(reader);
            subscriber.subscribe("s", World.scopeFilter(World.noScope()));
            subscriber.awaitEose("s");
            assertThat(subscriber.store("s")).containsKeys(x.toString(), y.toString(), z.toString());

            world.remove(owner, secret, reader.publicKeyHex());
            UUID first = world.create(owner, listed);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> subscriber.store("s").containsKey(first.toString()));
            assertThat(subscriber.store("s")).doesNotContainKeys(x.toString(), y.toString(), z.toString());
            for (UUID d : List.of(x, y, z)) {
                assertThat(removalsOf(subscriber, d)).as("removals of %s", d).isEqualTo(1);
            }

            int toldBy = subscriber.received().size();
            world.update(owner, x);
            world.delete(owner, y);
            world.redactHead(owner, z);
            world.update(owner, x);
            UUID second = world.create(owner, listed);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> subscriber.store("s").containsKey(second.toString()));

            for (UUID d : List.of(x, y, z)) {
                assertThat(removalsOf(subscriber, d))
                        .as("removals of %s after its later changes", d)
                        .isEqualTo(1);
            }
            List<JsonNode> since =
                    subscriber.received().subList(toldBy, subscriber.received().size());
            assertThat(since.toString())
                    .as("frames since the removals naming private channel %s or its artifacts", secret)
                    .doesNotContain(secret.toString(), x.toString(), y.toString(), z.toString());
        }
    }

    @Test
    void anArtifactBroughtBackAndTakenAwayAgainIsRemovedAgain() {
        UUID listed = world.channel(owner, true, false, false);
        UUID secret = world.channel(owner, false, false, false);
        world.add(owner, secret, reader.publicKeyHex());
        UUID x = world.create(owner, secret);

        try (SyncSocket subscriber = SyncSocket.connect(RELAY.baseUrl())) {
            subscriber.authenticateOk(reader);
            subscriber.subscribe("s", World.scopeFilter(World.noScope()));
            subscriber.awaitEose("s");

            world.remove(owner, secret, reader.publicKeyHex());
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !subscriber.store("s").containsKey(x.toString()));
            world.add(owner, secret, reader.publicKeyHex());
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> subscriber.store("s").containsKey(x.toString()));
            world.remove(owner, secret, reader.publicKeyHex());
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> !subscriber.store("s").containsKey(x.toString()));
            world.update(owner, x);
            UUID marker = world.create(owner, listed);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> subscriber.store("s").containsKey(marker.toString()));

            assertThat(removalsOf(subscriber, x))
                    .as("held twice, removed twice")
                    .isEqualTo(2);
        }
    }

    private static long removalsOf(SyncSocket subscriber, UUID d) {
        return subscriber.received().stream()
                .filter(frame -> SyncSocket.verb(frame).equals("EVENT")
                        && frame.get(2).get("kind").asInt() == Kinds.REMOVAL_MARKER
                        && names(frame.get(2), d))
                .count();
    }

    private static boolean names(JsonNode event, UUID d) {
        for (JsonNode tag : event.get("tags")) {
            if (tag.get(0).asText().equals(Tags.ARTIFACT_ID)
                    && tag.get(1).asText().equals(d.toString())) {
                return true;
            }
        }
        return false;
    }
}
