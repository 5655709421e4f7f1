package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.heads;
import static chat.buzz.relay.sync.World.noScope;
import static chat.buzz.relay.sync.World.scopeFilter;
import static chat.buzz.relay.testing.SyncSocket.tag;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A live change is judged for every subscriber of an instance in one access query, however many
 * subscribers and readers there are, so the cost of a write grows by a row per subscriber, not by a
 * query; and each of them still gets exactly what PROTOCOL 5 says.
 */
@IntegrationTest
class FanoutAccessQueriesTest {
    private static final String QUERIES = "buzz.sync.live-access-queries";

    @RegisterExtension
    static final TestRelay A = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    @RegisterExtension
    static final TestRelay B = TestRelay.anotherInstance(
            A, ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    private final NostrKeys alice = NostrKeys.generate();
    private final NostrKeys bob = NostrKeys.generate();
    private final NostrKeys carol = NostrKeys.generate();
    private final NostrKeys dave = NostrKeys.generate();
    private final World world = new World(A::client);

    private final NostrKeys eve = NostrKeys.generate();

    private record Follower(SyncSocket client, String subscription, NostrKeys reader, Set<UUID> scope) {}

    @Test
    void everyChangeCostsOneAccessQueryPerInstanceAndRemovalsReachOnlyThoseWhoHeldTheArtifact() {
        UUID listed = world.channel(alice, true, false, false);
        UUID secret = world.channel(alice, false, false, false);
        world.add(alice, secret, carol.publicKeyHex());
        List<Follower> followers = new ArrayList<>();
        try {
            Follower aliceAll = follow(B, alice, noScope());
            Follower bobAll = follow(B, bob, noScope());
            Follower carolSecret = follow(B, carol, Set.of(secret));
            Follower eveSecretOnB = follow(B, eve, Set.of(secret));
            Follower eveSecretOnA = follow(A, eve, Set.of(secret));
            followers.addAll(List.of(
                    aliceAll,
                    bobAll,
                    carolSecret,
                    eveSecretOnB,
                    eveSecretOnA,
                    follow(B, carol, noScope()),
                    follow(B, dave, Set.of(listed)),
                    follow(B, bob, Set.of(listed)),
                    follow(A, dave, noScope()),
                    follow(A, bob, Set.of(listed))));
            long beforeA = A.gauge(QUERIES);
            long beforeB = B.gauge(QUERIES);

            UUID d = world.create(alice, listed);
            awaitStores(followers);
            world.update(alice, d);
            awaitStores(followers);
            world.move(alice, d, secret);
            awaitStores(followers);
            world.delete(alice, d);
            awaitStores(followers);

            for (TestRelay relay : List.of(A, B)) {
                long before = relay == A ? beforeA : beforeB;
                await().atMost(Duration.ofSeconds(30)).until(() -> relay.gauge(QUERIES) - before >= 4);
                assertThat(relay.gauge(QUERIES) - before)
                        .as("four changes, one query each")
                        .isEqualTo(4);
            }
            JsonNode bobsFirst = removals(bobAll, d).get(0);
            assertThat(tag(bobsFirst, Tags.REMOVAL_REASON)).isEqualTo("moved");
            assertThat(tag(bobsFirst, Tags.CHANNEL)).isEqualTo(listed.toString());
            // Alice held it in both channels and can read both: one removal, at the delete.
            assertThat(removals(aliceAll, d))
                    .as("alice saw it until the delete")
                    .hasSize(1);
            // Carol held it only in the secret channel. h names only a channel in her D: the listed channel
            // it last left is outside her scope, so it names the secret one it was deleted in.
            assertThat(removals(carolSecret, d))
                    .hasSize(1)
                    .allSatisfy(
                            removal -> assertThat(tag(removal, Tags.CHANNEL)).isEqualTo(secret.toString()));
            for (Follower outsider : List.of(eveSecretOnA, eveSecretOnB)) {
                assertThat(events(outsider, d))
                        .as("eve never held it: she must not learn its id")
                        .isEmpty();
            }
        } finally {
            followers.forEach(follower -> follower.client().close());
        }
    }

    /**
     * A channel policy change delivered as entries is judged for every live subscriber of an instance
     * at once: a change that can only narrow D costs one query per instance (what left each reader's
     * D), one that can only widen it one (what entered), whatever the number of subscribers; and each
     * subscriber ends holding exactly its D, a member keeping the channel it can still read.
     */
    @Test
    void aPolicyChangeCostsOneAccessQueryPerInstanceAndDirectionForAllSubscribers() {
        UUID listed = world.channel(alice, true, false, false);
        world.add(alice, listed, carol.publicKeyHex());
        List<UUID> artifacts = List.of(world.create(alice, listed), world.create(alice, listed));
        List<Follower> followers = new ArrayList<>();
        try {
            followers.addAll(List.of(
                    follow(B, alice, noScope()),
                    follow(B, bob, noScope()),
                    follow(B, carol, Set.of(listed)),
                    follow(B, dave, Set.of(listed)),
                    follow(A, eve, noScope()),
                    follow(A, bob, Set.of(listed))));
            awaitStores(followers);
            for (Boolean open : List.of(false, true)) {
                long beforeA = A.gauge(QUERIES);
                long beforeB = B.gauge(QUERIES);
                world.edit(alice, listed, open, null, null);
                awaitStores(followers);
                for (TestRelay relay : List.of(A, B)) {
                    long before = relay == A ? beforeA : beforeB;
                    await().atMost(Duration.ofSeconds(30)).until(() -> relay.gauge(QUERIES) - before >= 1);
                    assertThat(relay.gauge(QUERIES) - before)
                            .as("made %s: one query per instance for all its subscribers", open ? "open" : "private")
                            .isEqualTo(1);
                }
            }
            for (Follower outsider : followers.stream()
                    .filter(f -> f.reader() == bob || f.reader() == dave || f.reader() == eve)
                    .toList()) {
                assertThat(removals(outsider, artifacts.get(0)))
                        .as("%s held it, lost it when the channel went private", outsider.subscription())
                        .hasSize(1);
            }
            for (Follower member : followers.stream()
                    .filter(f -> f.reader() == alice || f.reader() == carol)
                    .toList()) {
                assertThat(removals(member, artifacts.get(0)))
                        .as("a member reads the private channel: nothing left its D")
                        .isEmpty();
            }
            // The relays outlive this test: leave no artifact that another test's subscribers would see.
            artifacts.forEach(d -> world.delete(alice, d));
        } finally {
            followers.forEach(follower -> follower.client().close());
        }
    }

    /**
     * The fan-out renders each live frame once per subscription id and shares it; what goes out must be
     * the very text a subscription renders for itself (here: a snapshot's frame of the same head), and
     * the change must still cost one access query for all of them.
     */
    @Test
    void subscribersThatShareAFrameGetTheBytesTheirSnapshotWouldHaveFromOneQuery() {
        UUID listed = world.channel(alice, true, false, false);
        List<Follower> followers = new ArrayList<>();
        try {
            followers.addAll(List.of(
                    follow(B, bob, noScope()),
                    follow(B, carol, noScope()),
                    follow(B, dave, Set.of(listed)),
                    follow(B, eve, noScope(), "t")));
            long before = B.gauge(QUERIES);

            UUID d = world.create(alice, listed);
            awaitStores(followers);

            await().atMost(Duration.ofSeconds(30)).until(() -> B.gauge(QUERIES) - before >= 1);
            assertThat(B.gauge(QUERIES) - before).as("one change, one query").isEqualTo(1);
            Follower late = follow(B, bob, noScope());
            followers.add(late);
            String snapshotFrame = headFrames(late, d).get(0);
            for (Follower follower : followers.subList(0, 4)) {
                String expected = snapshotFrame.replaceFirst(
                        "^\\[\"EVENT\",\"s\",", "[\"EVENT\",\"" + follower.subscription() + "\",");
                assertThat(headFrames(follower, d))
                        .as("the live frame of %s", follower.subscription())
                        .containsExactly(expected);
            }
            // The relays outlive this test: leave no artifact that another test's subscribers would see.
            world.delete(alice, d);
        } finally {
            followers.forEach(follower -> follower.client().close());
        }
    }

    /** The text of every EVENT frame of the follower's subscription that is a head of {@code d}. */
    private static List<String> headFrames(Follower follower, UUID d) {
        List<String> frames = new ArrayList<>();
        for (String text : follower.client().receivedTexts()) {
            JsonNode message = SyncSocket.parseFrame(text);
            if (verb(message).equals("EVENT")
                    && message.get(1).asText().equals(follower.subscription())
                    && message.get(2).get("kind").asInt() != 45011
                    && message.get(2).toString().contains(d.toString())) {
                frames.add(text);
            }
        }
        return frames;
    }

    private Follower follow(TestRelay relay, NostrKeys reader, Set<UUID> scope) {
        return follow(relay, reader, scope, "s");
    }

    private Follower follow(TestRelay relay, NostrKeys reader, Set<UUID> scope, String subscription) {
        SyncSocket client = SyncSocket.connect(relay.baseUrl());
        client.authenticateOk(reader);
        client.subscribe(subscription, scopeFilter(scope));
        client.awaitEose(subscription);
        return new Follower(client, subscription, reader, scope);
    }

    private void awaitStores(List<Follower> followers) {
        for (Follower follower : followers) {
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(heads(follower.client().store(follower.subscription())))
                            .isEqualTo(world.discoverable(follower.reader().publicKeyHex(), follower.scope())));
        }
    }

    /** Every EVENT frame that names {@code d}: heads and removals. */
    private static List<JsonNode> events(Follower follower, UUID d) {
        List<JsonNode> events = new ArrayList<>();
        for (JsonNode message : follower.client().received()) {
            if (verb(message).equals("EVENT") && message.get(2).toString().contains(d.toString())) {
                events.add(message.get(2));
            }
        }
        return events;
    }

    private static List<JsonNode> removals(Follower follower, UUID d) {
        List<JsonNode> removals = new ArrayList<>();
        for (JsonNode message : follower.client().received()) {
            if (verb(message).equals("EVENT")
                    && message.get(2).get("kind").asInt() == 45011
                    && d.toString().equals(tag(message.get(2), Tags.ARTIFACT_ID))) {
                removals.add(message.get(2));
            }
        }
        return removals;
    }
}
