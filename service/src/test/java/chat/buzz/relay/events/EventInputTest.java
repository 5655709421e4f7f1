package chat.buzz.relay.events;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.now;
import static chat.buzz.relay.testing.Nostr.revision;
import static chat.buzz.relay.testing.Nostr.sign;
import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static chat.buzz.relay.testing.Replies.rejected;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Bad input to POST /events: a clear 4xx in the contract's shape, and nothing stored. */
@IntegrationTest
class EventInputTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private final NostrKeys alice = NostrKeys.generate();
    private final RelayClient client = RELAY.client();
    private long eventsBefore;

    @BeforeEach
    void countEvents() {
        eventsBefore = storedEvents();
    }

    @AfterEach
    void nothingWasStored() {
        assertThat(storedEvents()).as("a rejected write leaves nothing behind").isEqualTo(eventsBefore);
    }

    @Test
    void malformedJson() {
        Reply reply = client.post(alice, "/events", "{\"id\":");
        rejected(reply, 400, "invalid:");
        assertThat(reply.json().get("event_id").isNull()).isTrue();
        rejected(client.post(alice, "/events", ""), 400, "invalid:");
        rejected(client.post(alice, "/events", "[]"), 400, "invalid:");
    }

    @Test
    void wrongTypesAndBadHex() {
        Event good = createChannel(alice, newId(), "open");
        rejected(
                client.post(
                        alice,
                        "/events",
                        good.toJson()
                                .replace(
                                        "\"kind\":" + Kinds.CREATE_CHANNEL,
                                        "\"kind\":\"" + Kinds.CREATE_CHANNEL + "\"")),
                400,
                "invalid:");
        rejected(
                client.post(
                        alice,
                        "/events",
                        good.toJson().replace("\"created_at\":" + good.createdAt(), "\"created_at\":1.5")),
                400,
                "invalid:");
        rejected(
                client.post(
                        alice,
                        "/events",
                        good.toJson().replace(good.sig(), good.sig().toUpperCase())),
                400,
                "invalid:");
        rejected(
                client.post(alice, "/events", good.toJson().replace("\"content\":\"\"", "\"content\":null")),
                400,
                "invalid:");
        rejected(client.post(alice, "/events", good.toJson().replace("[\"h\",", "[1,")), 400, "invalid:");
    }

    @Test
    void idAndSignatureAreVerified() {
        Event good = createChannel(alice, newId(), "open");
        Event wrongId = new Event(
                "ab".repeat(32), good.pubkey(), good.createdAt(), good.kind(), good.tags(), good.content(), good.sig());
        rejected(client.publish(alice, wrongId), 400, "invalid: event id does not match its content");
        Event other = createChannel(alice, newId(), "open");
        Event wrongSig = new Event(
                good.id(), good.pubkey(), good.createdAt(), good.kind(), good.tags(), good.content(), other.sig());
        rejected(client.publish(alice, wrongSig), 400, "invalid: bad signature");
    }

    @Test
    void theEventMustBeTheCallers() {
        NostrKeys mallory = NostrKeys.generate();
        rejected(
                client.publish(mallory, createChannel(alice, newId(), "open")),
                403,
                "blocked: event pubkey is not the authenticated caller");
    }

    @Test
    void unknownKindsAndKindFive() {
        rejected(client.publish(alice, sign(alice, 1, List.of(), "hello")), 400, "invalid: unsupported kind 1");
        rejected(client.publish(alice, sign(alice, 5, List.of(tag("e", "a".repeat(64))), "")), 403, "blocked: kind 5");
    }

    @Test
    void createdAtFarInTheFuture() {
        Event future = alice.sign(
                Kinds.CREATE_CHANNEL,
                now() + 3600,
                List.of(
                        tag(Tags.CHANNEL, newId().toString()),
                        tag(Tags.CHANNEL_NAME, "x"),
                        tag(Tags.VISIBILITY, "open")),
                "");
        rejected(client.publish(alice, future), 400, "invalid: created_at is more than");
    }

    @Test
    void tagAndContentLimits() {
        UUID channel = newId();
        List<List<String>> many = new ArrayList<>(List.of(
                tag(Tags.CHANNEL, channel.toString()), tag(Tags.CHANNEL_NAME, "x"), tag(Tags.VISIBILITY, "open")));
        for (int i = 0; i < Limits.MAX_TAGS; i++) {
            many.add(tag("x", Integer.toString(i)));
        }
        rejected(
                client.publish(alice, sign(alice, Kinds.CREATE_CHANNEL, many, "")), 400, "invalid: more than 256 tags");
        rejected(
                client.publish(
                        alice,
                        sign(
                                alice,
                                Kinds.CREATE_CHANNEL,
                                List.of(
                                        tag(Tags.CHANNEL, channel.toString()),
                                        tag(Tags.CHANNEL_NAME, "x"),
                                        tag(Tags.VISIBILITY, "open"),
                                        tag("x", "v".repeat(4097))),
                                "")),
                400,
                "invalid: tag value longer than 4096 bytes");
        List<List<String>> heavy = new ArrayList<>(List.of(
                tag(Tags.CHANNEL, channel.toString()), tag(Tags.CHANNEL_NAME, "x"), tag(Tags.VISIBILITY, "open")));
        for (int i = 0; i < 20; i++) {
            heavy.add(tag("x", "v".repeat(4000)));
        }
        rejected(
                client.publish(alice, sign(alice, Kinds.CREATE_CHANNEL, heavy, "")),
                400,
                "invalid: tags larger than 65536 bytes");
        rejected(
                client.publish(
                        alice,
                        sign(
                                alice,
                                Kinds.CREATE_CHANNEL,
                                List.of(
                                        tag(Tags.CHANNEL, channel.toString()),
                                        tag(Tags.CHANNEL_NAME, "x"),
                                        tag(Tags.VISIBILITY, "open")),
                                "c".repeat(65537))),
                400,
                "invalid: content larger than 65536 bytes");
    }

    @Test
    void nulCharactersAreRefusedWhereverTheyWouldBeStored() {
        UUID channel = newId();
        List<List<String>> base = List.of(tag(Tags.CHANNEL, channel.toString()), tag(Tags.VISIBILITY, "open"));
        rejected(
                client.publish(
                        alice, sign(alice, Kinds.CREATE_CHANNEL, with(base, tag(Tags.CHANNEL_NAME, "a\u0000b")), "")),
                400,
                "invalid: ");
        rejected(
                client.publish(
                        alice,
                        sign(
                                alice,
                                Kinds.CREATE_CHANNEL,
                                with(base, tag(Tags.CHANNEL_NAME, "x"), tag("x\u0000", "v")),
                                "")),
                400,
                "invalid: ");
        rejected(
                client.publish(
                        alice,
                        sign(alice, Kinds.CREATE_CHANNEL, with(base, tag(Tags.CHANNEL_NAME, "x")), "nul \u0000 here")),
                400,
                "invalid: ");
        rejected(
                client.publish(alice, revision(alice, newId(), channel, "create", null, "title\u0000")),
                400,
                "invalid: ");
        Reply reply = client.publish(
                alice,
                sign(
                        alice,
                        Kinds.CREATE_CHANNEL,
                        with(base, tag(Tags.CHANNEL_NAME, "x"), tag("opaque", "\u0000")),
                        ""));
        rejected(reply, 400, "invalid: ");
        assertThat(reply.message()).contains("NUL");
        assertThat(channelsNamed(channel)).as("no channel row either").isZero();
    }

    @Test
    void bodiesThatAreNotUtf8() {
        byte[] latin1 = {'{', '"', (byte) 0xE9, '"', '}'};
        String auth = Nip98.authorizationHeader(alice, "POST", client.baseUrl() + "/events", latin1, now());
        Reply reply = client.send(client.request("/events")
                .header("Authorization", auth)
                .POST(HttpRequest.BodyPublishers.ofByteArray(latin1)));
        rejected(reply, 400, "invalid: body is not valid UTF-8");
    }

    @Test
    void aFailureAfterTheEventRowLeavesNoPartialWrite() {
        UUID channel = newId();
        Event create = createChannel(alice, channel, "open");
        accepted(client.publish(alice, create));
        eventsBefore = storedEvents();
        // Passes validation and is inserted first, then the compare-and-set refuses it: all rolled back.
        rejected(
                client.publish(alice, revision(alice, newId(), channel, "update", "c".repeat(64), "t")),
                403,
                "blocked:");
    }

    @Test
    void unknownRoutesAndMethodsAnswerInJson() {
        Reply missing = client.post(alice, "/nowhere", "{}");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.error()).isNotBlank();
        Reply wrongMethod = client.send(client.request("/events").GET());
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.error()).isNotBlank();
    }

    @SafeVarargs
    private static List<List<String>> with(List<List<String>> base, List<String>... more) {
        List<List<String>> tags = new ArrayList<>(base);
        tags.addAll(List.of(more));
        return tags;
    }

    private static long channelsNamed(UUID channel) {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM channels WHERE id = CAST(:id AS uuid)")
                        .bind("id", channel.toString())
                        .mapTo(Long.class)
                        .one());
    }

    private static long storedEvents() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM events")
                        .mapTo(Long.class)
                        .one());
    }
}
