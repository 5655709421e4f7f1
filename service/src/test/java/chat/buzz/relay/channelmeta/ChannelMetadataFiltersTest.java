package chat.buzz.relay.channelmeta;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.editChannel;
import static chat.buzz.relay.testing.Nostr.membership;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static chat.buzz.relay.testing.Replies.rejected;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PROTOCOL 4.6 with several filters: a metadata read over WebSocket or HTTP may carry several metadata
 * filters and deletion filters ({@code kinds:[5]}); the answer is their union with one EOSE, and live the
 * kind-5 that withdraws a channel reaches the subscription once. Also the tags of current NIP-29 on 39000.
 */
@IntegrationTest
class ChannelMetadataFiltersTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private static final String RELAY_KEY =
            NostrKeys.fromSecretHex("0".repeat(63) + "3").publicKeyHex();
    private static final String STOCK_NIP29 =
            "{\"kinds\":[39000,39001,39002]},{\"kinds\":[5],\"authors\":[\"" + RELAY_KEY + "\"]}";

    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys member = NostrKeys.generate();
    private final NostrKeys outsider = NostrKeys.generate();
    private final RelayClient client = RELAY.client();

    @Test
    void severalFiltersInOneReqAnswerTheirUnionOnceWithOneEose() {
        UUID first = channel("open");
        UUID second = channel("open");
        try (SyncSocket socket = SyncSocket.connect(RELAY.baseUrl())) {
            socket.authenticateOk(owner);
            socket.send("[\"REQ\",\"union\",{\"kinds\":[39000],\"#d\":[\"" + first + "\"]},"
                    + "{\"kinds\":[39002],\"#d\":[\"" + second + "\"]},"
                    + "{\"kinds\":[39000,39001],\"#d\":[\"" + first + "\"]}]");
            socket.awaitEose("union");
            UUID marker = channel("open");
            accepted(client.publish(owner, editChannel(owner, first, tag(Tags.CHANNEL_NAME, "renamed"))));
            awaitEvent(socket, "union", first, e -> e.tags().contains(List.of("name", "renamed")));

            List<JsonNode> frames = framesOf(socket, "union");
            int eose = indexOfVerb(frames, "EOSE");
            assertThat(frames.stream().filter(f -> verb(f).equals("EOSE"))).hasSize(1);
            assertThat(frames.subList(0, eose))
                    .extracting(f -> Event.fromJson(f.get(2)).kind() + " " + channelOf(f))
                    .as("each event of the union once, newest first")
                    .containsExactlyInAnyOrder("39000 " + first, "39001 " + first, "39002 " + second);
            assertThat(socket.received().toString()).doesNotContain(marker.toString());
        }
    }

    @Test
    void theStockNip29SubscriptionHearsTheDeletionWhenItsMemberIsRemovedOnce() {
        UUID channel = channel("private");
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), null)));
        try (SyncSocket socket = SyncSocket.connect(RELAY.baseUrl())) {
            socket.authenticateOk(member);
            socket.send("[\"REQ\",\"groups\"," + STOCK_NIP29 + "]");
            socket.awaitEose("groups");
            assertThat(framesOf(socket, "groups").stream()
                            .filter(f -> verb(f).equals("EVENT") && channelOf(f).equals(channel.toString())))
                    .hasSize(3);

            accepted(client.publish(
                    owner, membership(owner, Kinds.REMOVE_MEMBER, channel, member.publicKeyHex(), null)));
            Event deletion = awaitEvent(socket, "groups", channel, e -> e.kind() == Kinds.DELETION);
            assertThat(deletion.tags())
                    .containsExactly(
                            List.of("a", "39000:" + RELAY_KEY + ":" + channel),
                            List.of("a", "39001:" + RELAY_KEY + ":" + channel),
                            List.of("a", "39002:" + RELAY_KEY + ":" + channel));
            UUID marker = channel("open");
            awaitEvent(socket, "groups", marker, e -> e.kind() == Kinds.CHANNEL_MEMBERS);
            assertThat(framesOf(socket, "groups").stream()
                            .filter(f -> verb(f).equals("EVENT")
                                    && Event.fromJson(f.get(2)).kind() == Kinds.DELETION))
                    .as("the deletion goes once, though two filters would take it")
                    .hasSize(1);
        }
    }

    @Test
    void aDeletionFilterAloneHearsAChannelLeaveTheReadersView() {
        UUID named = channel("open");
        UUID other = channel("open");
        try (SyncSocket socket = SyncSocket.connect(RELAY.baseUrl())) {
            socket.authenticateOk(outsider);
            socket.send("[\"REQ\",\"gone\",{\"kinds\":[5],\"#a\":[\"39000:" + RELAY_KEY + ":" + named + "\"]}]");
            socket.awaitEose("gone");
            assertThat(framesOf(socket, "gone"))
                    .as("no deletion is kept: nothing before EOSE")
                    .hasSize(1);
            socket.send("[\"REQ\",\"broad\",{\"kinds\":[5]}]");
            socket.awaitEose("broad");

            accepted(client.publish(owner, editChannel(owner, other, tag(Tags.VISIBILITY, "private"))));
            awaitEvent(socket, "broad", other, e -> e.kind() == Kinds.DELETION);
            accepted(client.publish(owner, editChannel(owner, named, tag(Tags.VISIBILITY, "private"))));
            Event deletion = awaitEvent(socket, "gone", named, e -> e.kind() == Kinds.DELETION);
            assertThat(deletion.tags()).containsExactly(List.of("a", "39000:" + RELAY_KEY + ":" + named));
            awaitEvent(socket, "broad", named, e -> e.kind() == Kinds.DELETION);
            assertThat(framesOf(socket, "gone").toString())
                    .as("the named filter hears only its channel")
                    .doesNotContain(other.toString());
        }
    }

    @Test
    void badFiltersAreClosedWithTheReasonAndASyncReqStaysOneFilter() {
        try (SyncSocket socket = SyncSocket.connect(RELAY.baseUrl())) {
            socket.authenticateOk(outsider);
            assertClosed(
                    socket,
                    "[\"REQ\",\"mixed\",{\"kinds\":[5,39000]}]",
                    "invalid: a filter asks for channel metadata (kinds 39000, 39001, 39002) or for their deletions"
                            + " (kinds [5]), not both: send them as two filters of one REQ");
            assertClosed(
                    socket,
                    "[\"REQ\",\"other\",{\"kinds\":[39000]},{\"kinds\":[1]}]",
                    "invalid: kinds must be among 39000, 39001, 39002 (channel metadata) or be [5] (their deletions)"
                            + " in a filter without \"artifact\"");
            assertClosed(
                    socket,
                    "[\"REQ\",\"keys\",{\"kinds\":[5],\"#d\":[\"" + newId() + "\"]}]",
                    "invalid: a deletion filter (kinds [5]) takes only kinds, authors, #a, since and limit; not #d");
            assertClosed(
                    socket,
                    "[\"REQ\",\"address\",{\"kinds\":[5],\"#a\":[]}]",
                    "invalid: #a must be an array of 1..100 addresses");
            assertClosed(
                    socket,
                    "[\"REQ\",\"many\"" + ",{\"kinds\":[39000]}".repeat(11) + "]",
                    "invalid: a channel-metadata read has 1..10 filters");
            assertClosed(
                    socket,
                    "[\"REQ\",\"shape\",{\"kinds\":[39000]},[]]",
                    "invalid: every filter must be a JSON object");
            assertClosed(
                    socket,
                    "[\"REQ\",\"sync\",{\"kinds\":[39000]},{\"artifact\":\"sync\"}]",
                    "sync_unavailable: WebSocket sync is turned off on this relay");
        }
    }

    @Test
    void postQueryTakesAFilterArrayAndAnswersTheUnion() {
        UUID channel = channel("open");
        String one = "\"#d\":[\"" + channel + "\"]";
        Reply reply = client.query(
                owner,
                "[{\"kinds\":[39000]," + one + "},{\"kinds\":[39001,39000]," + one + "},{\"kinds\":[5],\"authors\":[\""
                        + RELAY_KEY + "\"]}]");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        List<Event> events = StreamSupport.stream(reply.json().spliterator(), false)
                .map(Event::fromJson)
                .toList();
        assertThat(events).extracting(Event::kind).containsExactlyInAnyOrder(39000, 39001);
        assertThat(events).isSortedAccordingTo((a, b) -> Long.compare(b.createdAt(), a.createdAt()));

        refused("[{\"kinds\":[5,39000]}]", 400, "invalid: a filter asks for channel metadata");
        refused("[{\"kinds\":[39000]},{\"kinds\":[5],\"until\":1}]", 400, "invalid: a deletion filter");
        refused(
                "[{\"artifact\":\"current\"},{\"kinds\":[39000]}]",
                400,
                "invalid: an artifact read (a filter with \"artifact\") has exactly one filter");
        refused("[]", 400, "invalid: body must be a JSON array of filter objects");
        refused("[{\"kinds\":[39000]},7]", 400, "invalid: body must be a JSON array of filter objects");
    }

    @Test
    void metadataCarriesAboutPictureHiddenAndRestrictedAsCurrentNip29Does() {
        UUID secret = newId();
        accepted(client.publish(
                owner,
                createChannel(
                        owner,
                        secret,
                        "private",
                        tag(Tags.ABOUT, "plans for the garden"),
                        tag(Tags.PICTURE, "https://example.org/garden.png"))));
        assertThat(metadata(owner, secret).tags())
                .containsExactly(
                        List.of("d", secret.toString()),
                        List.of("name", "channel " + secret),
                        List.of("about", "plans for the garden"),
                        List.of("picture", "https://example.org/garden.png"),
                        List.of("private"),
                        List.of("closed"),
                        List.of("hidden"),
                        List.of("restricted"));
        accepted(client.publish(owner, editChannel(owner, secret, tag(Tags.ABOUT, ""), tag(Tags.VISIBILITY, "open"))));
        assertThat(metadata(owner, secret).tags())
                .as("an empty about clears it; an open channel is neither hidden nor restricted")
                .containsExactly(
                        List.of("d", secret.toString()),
                        List.of("name", "channel " + secret),
                        List.of("picture", "https://example.org/garden.png"));
        accepted(client.publish(owner, editChannel(owner, secret, tag(Tags.UNLISTED, "true"))));
        assertThat(metadata(owner, secret).tags()).contains(List.of("hidden")).doesNotContain(List.of("restricted"));
        accepted(client.publish(owner, editChannel(owner, secret, tag(Tags.PICTURE, "https://example.org/new.png"))));
        assertThat(metadata(owner, secret).tags()).contains(List.of("picture", "https://example.org/new.png"));
        rejected(
                client.publish(owner, editChannel(owner, secret, tag(Tags.ABOUT, "x".repeat(2049)))),
                400,
                "invalid: about must be at most 2048 bytes");
    }

    private void refused(String body, int status, String errorPrefix) {
        Reply reply = client.query(owner, body);
        assertThat(reply.status()).as(body + " -> " + reply).isEqualTo(status);
        assertThat(reply.error()).as(body).startsWith(errorPrefix);
    }

    private Event metadata(NostrKeys who, UUID channel) {
        Reply reply = client.query(who, "[{\"kinds\":[39000],\"#d\":[\"" + channel + "\"]}]");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json()).hasSize(1);
        return Event.fromJson(reply.json().get(0));
    }

    private static void assertClosed(SyncSocket socket, String req, String reason) {
        String id = req.substring("[\"REQ\",\"".length(), req.indexOf('"', "[\"REQ\",\"".length()));
        socket.send(req);
        assertThat(socket.awaitClosed(id)).isEqualTo(reason);
    }

    private UUID channel(String visibility) {
        UUID channel = newId();
        accepted(client.publish(owner, createChannel(owner, channel, visibility)));
        return channel;
    }

    private static List<JsonNode> framesOf(SyncSocket socket, String subscription) {
        return socket.received().stream()
                .filter(m -> m.size() > 1
                        && m.get(1).isTextual()
                        && m.get(1).asText().equals(subscription))
                .filter(m -> verb(m).equals("EVENT") || verb(m).equals("EOSE"))
                .toList();
    }

    private static int indexOfVerb(List<JsonNode> frames, String verb) {
        for (int i = 0; i < frames.size(); i++) {
            if (verb(frames.get(i)).equals(verb)) {
                return i;
            }
        }
        throw new AssertionError("no " + verb + " in " + frames);
    }

    private static String channelOf(JsonNode eventFrame) {
        Event event = Event.fromJson(eventFrame.get(2));
        if (event.kind() == Kinds.DELETION) {
            return event.tags()
                    .get(0)
                    .get(1)
                    .substring(event.tags().get(0).get(1).lastIndexOf(':') + 1);
        }
        return event.tag(Tags.ARTIFACT_ID).orElseThrow();
    }

    private static Event awaitEvent(SyncSocket socket, String subscription, UUID channel, Predicate<Event> matching) {
        JsonNode frame = socket.awaitMessage(m -> verb(m).equals("EVENT")
                && m.get(1).asText().equals(subscription)
                && channelOf(m).equals(channel.toString())
                && matching.test(Event.fromJson(m.get(2))));
        Event event = Event.fromJson(frame.get(2));
        event.verify();
        assertThat(event.pubkey()).isEqualTo(RELAY_KEY);
        return event;
    }
}
