package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.Replies.accepted;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.PolicyChangeKinds;
import chat.buzz.relay.testing.PolicyChangeKinds.Change;
import chat.buzz.relay.testing.PolicyChangeKinds.Heard;
import chat.buzz.relay.testing.PolicyChangeKinds.ReaderKind;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PROTOCOL 4.4 and 5 with gate SCOPED_POLICY on, over WebSocket: for every kind of channel policy
 * change ({@link PolicyChangeKinds}) and every kind of subscriber, the live frames are exactly the
 * table's (an EVENT with the head for each artifact that entered D, a relay-signed 45011 with reason
 * unavailable and no {@code h} for each that left it, nothing when D did not change), no subscription
 * is closed with sync_reset, and the policy stamp does not move. A later write to a beacon channel
 * every subscriber sees marks the end of what the change sent: a subscription's frames are in order.
 * Run twice: with the change judged for every subscriber of the instance in one query per direction,
 * and with each subscription streaming it in keyset chunks of its own.
 */
@IntegrationTest
abstract class PolicyChangeFramesCases {
    /** A relay with gates sync, incremental and scopedPolicy on, and {@code more} besides. */
    static TestRelay relayWith(ConfigOverride... more) {
        List<ConfigOverride> overrides = new java.util.ArrayList<>(List.of(
                ConfigOverride.config("gates.sync", "true"),
                ConfigOverride.config("gates.incremental", "true"),
                ConfigOverride.config("gates.scopedPolicy", "true")));
        overrides.addAll(List.of(more));
        return TestRelay.create(overrides.toArray(ConfigOverride[]::new));
    }

    /** The relay under test, gates sync, incremental and scopedPolicy on. */
    abstract TestRelay relayUnderTest();

    private final TestRelay server = relayUnderTest();
    private final RelayClient relay = server.client();
    private final NostrKeys owner = NostrKeys.generate();
    private final World world = new World(server::client);

    static List<Change> changes() {
        return PolicyChangeKinds.all();
    }

    /** One subscription of one reader: its socket, its id, and how many messages it had before the change. */
    record Subscriber(ReaderKind kind, SyncSocket socket, String id) {
        List<JsonNode> framesFrom(int from) {
            return socket.received().stream()
                    .skip(from)
                    .filter(m -> m.path(1).asText().equals(id))
                    .toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void eachSubscriberGetsExactlyTheFramesOfWhatEnteredOrLeftItsD(Change change) {
        UUID channel = UUID.randomUUID();
        accepted(relay.publish(owner, change.create(owner, channel)));
        UUID beacon = world.channel(owner, true, false, false);
        NostrKeys member = NostrKeys.generate();
        NostrKeys outsider = NostrKeys.generate();
        accepted(relay.publish(owner, Nostr.membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), null)));
        Map<String, String> heads = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            UUID d = Nostr.newId();
            Event created = Nostr.revision(owner, d, channel, "create", null, "in the changed channel");
            accepted(relay.publish(owner, created));
            heads.put(d.toString(), created.id());
        }
        String scope = World.scopeFilter(new java.util.LinkedHashSet<>(List.of(channel, beacon)));

        try (SyncSocket memberSocket = SyncSocket.connect(server.baseUrl());
                SyncSocket outsiderSocket = SyncSocket.connect(server.baseUrl())) {
            memberSocket.authenticateOk(member);
            outsiderSocket.authenticateOk(outsider);
            Map<ReaderKind, Subscriber> subscribers = new EnumMap<>(ReaderKind.class);
            for (ReaderKind kind : ReaderKind.values()) {
                SyncSocket socket = kind.member ? memberSocket : outsiderSocket;
                Subscriber subscriber = new Subscriber(kind, socket, kind.name().toLowerCase());
                socket.subscribe(subscriber.id(), kind.scoped ? scope : World.scopeFilter(World.noScope()));
                if (kind.scoped && change.heard(kind) == Heard.REFUSED_BEFORE) {
                    assertThat(socket.awaitClosed(subscriber.id())).startsWith("invalid: channel " + channel);
                } else {
                    socket.awaitEose(subscriber.id());
                }
                subscribers.put(kind, subscriber);
            }
            Map<ReaderKind, Integer> before = new EnumMap<>(ReaderKind.class);
            subscribers.forEach(
                    (kind, s) -> before.put(kind, s.socket().received().size()));
            String stamp = stamp();

            accepted(relay.publish(owner, change.change(owner, channel)));
            UUID marker = world.create(owner, beacon);

            assertThat(stamp()).as("the policy stamp of the community").isEqualTo(stamp);
            for (Subscriber subscriber : subscribers.values()) {
                Heard heard = change.heard(subscriber.kind());
                String as = change.name() + ", " + subscriber.kind();
                if (heard == Heard.REFUSED_BEFORE) {
                    String again = subscriber.id() + "-after";
                    subscriber.socket().subscribe(again, scope);
                    subscriber.socket().awaitEose(again);
                    assertThat(World.heads(subscriber.socket().store(again)))
                            .as(as + ": the snapshot after the TTL was cleared")
                            .containsAllEntriesOf(heads);
                    continue;
                }
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> subscriber.socket().store(subscriber.id()).containsKey(marker.toString()));
                List<JsonNode> frames = subscriber.framesFrom(before.get(subscriber.kind()));
                assertThat(frames)
                        .as("%s: only EVENT frames, no sync_reset: %s", as, frames)
                        .allMatch(m -> verb(m).equals("EVENT"));
                List<JsonNode> ofTheChange = frames.stream()
                        .map(m -> m.get(2))
                        .filter(e -> !marker.toString().equals(SyncSocket.tag(e, Tags.ARTIFACT_ID)))
                        .toList();
                assertThat(describe(ofTheChange)).as(as).isEqualTo(expected(heard, heads));
                ofTheChange.forEach(event -> assertFrameShape(event, as));
            }
        }
    }

    /**
     * A former member of a private channel, already sent the removals, and then the channel is deleted
     * or made open and unlisted: the unscoped subscription's D does not change, so it gets no frame
     * (PROTOCOL 4.4, 5); the subscription whose scope names the channel gets the heads back when it is
     * open again.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("laterChanges")
    void aFormerMemberAlreadySentTheRemovalsGetsNoFrameForALaterChangeThatLeavesItsD(
            String name, List<List<String>> edit, boolean scopedGetsHeads) {
        UUID channel = world.channel(owner, false, false, false);
        UUID beacon = world.channel(owner, true, false, false);
        NostrKeys former = NostrKeys.generate();
        world.add(owner, channel, former.publicKeyHex());
        Map<String, String> heads = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            UUID d = world.create(owner, channel);
            heads.put(d.toString(), world.artifacts.get(d).head);
        }
        try (SyncSocket socket = SyncSocket.connect(server.baseUrl())) {
            socket.authenticateOk(former);
            Subscriber unscoped = new Subscriber(ReaderKind.MEMBER, socket, "unscoped");
            Subscriber scoped = new Subscriber(ReaderKind.MEMBER_SCOPED, socket, "scoped");
            socket.subscribe(unscoped.id(), World.scopeFilter(World.noScope()));
            socket.subscribe(scoped.id(), World.scopeFilter(new java.util.LinkedHashSet<>(List.of(channel, beacon))));
            socket.awaitEose(unscoped.id());
            socket.awaitEose(scoped.id());
            world.remove(owner, channel, former.publicKeyHex());
            for (Subscriber subscriber : List.of(unscoped, scoped)) {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> heads.keySet().stream().noneMatch(socket.store(subscriber.id())::containsKey));
            }
            UUID first = world.create(owner, beacon);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> socket.store(unscoped.id()).containsKey(first.toString())
                            && socket.store(scoped.id()).containsKey(first.toString()));
            int before = socket.received().size();

            if (edit == null) {
                world.deleteChannel(owner, channel);
            } else {
                @SuppressWarnings("unchecked")
                List<String>[] tags = edit.toArray(List[]::new);
                accepted(relay.publish(owner, Nostr.editChannel(owner, channel, tags)));
            }
            UUID marker = world.create(owner, beacon);

            Map<String, String> upserts = new HashMap<>();
            heads.forEach((d, head) -> upserts.put(d, "upsert:" + head));
            Map<String, Map<String, String>> expected = new HashMap<>();
            Map<String, Map<String, String>> got = new HashMap<>();
            for (Subscriber subscriber : List.of(unscoped, scoped)) {
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> socket.store(subscriber.id()).containsKey(marker.toString()));
                List<JsonNode> ofTheChange = subscriber.framesFrom(before).stream()
                        .map(m -> m.get(2))
                        .filter(e -> !marker.toString().equals(SyncSocket.tag(e, Tags.ARTIFACT_ID)))
                        .toList();
                got.put(subscriber.id(), describe(ofTheChange));
                expected.put(subscriber.id(), subscriber == scoped && scopedGetsHeads ? upserts : Map.of());
            }
            assertThat(got).as("%s: frames per subscription", name).isEqualTo(expected);
        }
    }

    /**
     * Open, private and open again while a non-member is subscribed, a head edited and another deleted
     * while private: the frames take the artifacts away, bring back the edited head and the untouched
     * one, and never the deleted one; the store ends as D and no subscription is reset.
     */
    @org.junit.jupiter.api.Test
    void openPrivateOpenWhileSubscribedEndsWithD() {
        UUID channel = world.channel(owner, true, false, false);
        UUID beacon = world.channel(owner, true, false, false);
        UUID edited = world.create(owner, channel);
        UUID deleted = world.create(owner, channel);
        UUID untouched = world.create(owner, channel);
        NostrKeys outsider = NostrKeys.generate();
        try (SyncSocket socket = SyncSocket.connect(server.baseUrl())) {
            socket.authenticateOk(outsider);
            socket.subscribe("s", World.scopeFilter(new java.util.LinkedHashSet<>(List.of(channel, beacon))));
            socket.awaitEose("s");
            int before = socket.received().size();

            world.edit(owner, channel, false, null, null);
            world.update(owner, edited);
            world.delete(owner, deleted);
            world.edit(owner, channel, true, null, null);
            UUID marker = world.create(owner, beacon);

            await().atMost(Duration.ofSeconds(30)).until(() -> socket.store("s").containsKey(marker.toString()));
            List<JsonNode> frames = new Subscriber(ReaderKind.OUTSIDER_SCOPED, socket, "s").framesFrom(before);
            assertThat(frames).as("no sync_reset: %s", frames).allMatch(m -> verb(m).equals("EVENT"));
            assertThat(World.heads(socket.store("s")))
                    .isEqualTo(world.discoverable(
                            outsider.publicKeyHex(), new java.util.LinkedHashSet<>(List.of(channel, beacon))));
            assertThat(socket.store("s"))
                    .containsKeys(edited.toString(), untouched.toString())
                    .doesNotContainKey(deleted.toString());
            // The channel is in the subscriber's D again, so a removal judged now may name it (PROTOCOL 5).
            for (JsonNode frame : frames) {
                JsonNode event = frame.get(2);
                assertThat(Event.fromJson(event).hasValidSignature()).isTrue();
                String h = SyncSocket.tag(event, Tags.CHANNEL);
                assertThat(h).as("%s", event).isIn(null, channel.toString(), beacon.toString());
            }
        }
    }

    /**
     * A subscriber that subscribed after an open channel went private never held its artifacts (the
     * snapshot left them out): when the channel is then deleted its D does not change, so it gets no
     * frame (PROTOCOL 4.4; 5: a removal goes only to a subscriber whose D held the artifact).
     */
    @org.junit.jupiter.api.Test
    void aSubscriberThatNeverHeldTheArtifactsGetsNoFrameWhenTheChannelIsDeleted() {
        UUID channel = world.channel(owner, true, false, false);
        UUID beacon = world.channel(owner, true, false, false);
        List<UUID> artifacts = List.of(world.create(owner, channel), world.create(owner, channel));
        world.edit(owner, channel, false, null, null);
        try (SyncSocket socket = SyncSocket.connect(server.baseUrl())) {
            socket.authenticateOk(NostrKeys.generate());
            socket.subscribe("late", World.scopeFilter(World.noScope()));
            socket.awaitEose("late");
            assertThat(socket.store("late"))
                    .doesNotContainKeys(artifacts.stream().map(UUID::toString).toArray(String[]::new));
            int before = socket.received().size();

            world.deleteChannel(owner, channel);
            UUID marker = world.create(owner, beacon);

            await().atMost(Duration.ofSeconds(30))
                    .until(() -> socket.store("late").containsKey(marker.toString()));
            Subscriber late = new Subscriber(ReaderKind.OUTSIDER, socket, "late");
            List<JsonNode> ofTheChange = late.framesFrom(before).stream()
                    .map(m -> m.get(2))
                    .filter(e -> !marker.toString().equals(SyncSocket.tag(e, Tags.ARTIFACT_ID)))
                    .toList();
            assertThat(describe(ofTheChange)).isEmpty();
        }
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> laterChanges() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("channel deleted", null, false),
                org.junit.jupiter.params.provider.Arguments.of(
                        "made open and unlisted",
                        List.of(
                                chat.buzz.relay.testing.Nostr.tag(Tags.VISIBILITY, "open"),
                                chat.buzz.relay.testing.Nostr.tag(Tags.UNLISTED, "true")),
                        true));
    }

    /** d → "upsert:head" or "remove:reason", one per frame; a second frame for one d fails. */
    private static Map<String, String> describe(List<JsonNode> events) {
        Map<String, String> described = new HashMap<>();
        for (JsonNode event : events) {
            String d = SyncSocket.tag(event, Tags.ARTIFACT_ID);
            String what = event.get("kind").asInt() == Kinds.ARTIFACT_REVISION
                    ? "upsert:" + event.get("id").asText()
                    : "remove:" + SyncSocket.tag(event, Tags.REMOVAL_REASON);
            assertThat(described.put(d, what))
                    .as("a second frame for %s: %s", d, events)
                    .isNull();
        }
        return described;
    }

    private static Map<String, String> expected(Heard heard, Map<String, String> heads) {
        Map<String, String> expected = new HashMap<>();
        switch (heard) {
            case UPSERT -> heads.forEach((d, head) -> expected.put(d, "upsert:" + head));
            // A live subscription whose scope names a channel that gets a TTL held its artifacts.
            case REMOVE, REFUSED_AFTER -> heads.keySet().forEach(d -> expected.put(d, "remove:unavailable"));
            default -> {}
        }
        return expected;
    }

    /**
     * PROTOCOL 5: a removal is relay-signed with tags ar, d, reason, and h only when that channel is in
     * the subscriber's D now, which after a policy change that took the artifact away it never is.
     */
    private void assertFrameShape(JsonNode event, String as) {
        Event parsed = Event.fromJson(event);
        assertThat(parsed.hasValidSignature()).as(as).isTrue();
        if (event.get("kind").asInt() == Kinds.REMOVAL_MARKER) {
            assertThat(event.get("pubkey").asText())
                    .as(as)
                    .isEqualTo(NostrKeys.fromSecretHex(
                                    server.configuration().getRelay().getSecretKey())
                            .publicKeyHex());
            assertThat(Set.copyOf(SyncSocket.tagNames(event)))
                    .as("%s: the removal's tags %s", as, event)
                    .contains(Tags.ARTIFACT_FLAG, Tags.ARTIFACT_ID, Tags.REMOVAL_REASON)
                    .doesNotContain(Tags.CHANNEL);
        }
    }

    private String stamp() {
        return relay.query(owner, "[{\"artifact\":\"incremental\",\"#d\":[\"" + UUID.randomUUID() + "\"]}]")
                .json()
                .get("policy")
                .asText();
    }
}
