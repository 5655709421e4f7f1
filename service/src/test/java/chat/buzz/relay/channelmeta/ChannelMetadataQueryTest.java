package chat.buzz.relay.channelmeta;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.editChannel;
import static chat.buzz.relay.testing.Nostr.membership;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.sign;
import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Nostr.uuidArray;
import static chat.buzz.relay.testing.Replies.accepted;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** POST /query without "artifact": relay-signed NIP-29 channel metadata (kinds 39000-39002). */
@IntegrationTest
class ChannelMetadataQueryTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private static final String ALL_KINDS = "\"kinds\":[39000,39001,39002]";

    private static String relayKey;

    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys admin = NostrKeys.generate();
    private final NostrKeys member = NostrKeys.generate();
    private final NostrKeys outsider = NostrKeys.generate();
    private final RelayClient client = RELAY.client();

    @BeforeAll
    static void relayKey() {
        RelayClient client = RELAY.client();
        relayKey = client.send(client.request("/")
                        .header("Accept", "application/nostr+json")
                        .GET())
                .json()
                .get("pubkey")
                .asText();
    }

    @Test
    void aMemberReadsAPrivateChannelsMetadataAdminsAndMembersSignedByTheRelay() {
        UUID channel = channel("private", tag(Tags.TTL, "3600"));
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, admin.publicKeyHex(), "admin")));
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), null)));

        List<Event> events = events(member, ALL_KINDS + ",\"#d\":[\"" + channel + "\"]");
        assertThat(events).extracting(Event::kind).containsExactlyInAnyOrder(39000, 39001, 39002);
        for (Event event : events) {
            event.verify();
            assertThat(event.pubkey()).isEqualTo(relayKey);
            assertThat(event.tags()).first().isEqualTo(List.of("d", channel.toString()));
        }
        assertThat(ofKind(events, Kinds.CHANNEL_METADATA).tags())
                .containsExactly(
                        List.of("d", channel.toString()),
                        List.of("name", "channel " + channel),
                        List.of("private"),
                        List.of("closed"),
                        List.of("hidden"),
                        List.of("restricted"),
                        List.of("ttl", "3600"));
        assertThat(ofKind(events, Kinds.CHANNEL_ADMINS).tags())
                .containsExactlyInAnyOrder(
                        List.of("d", channel.toString()),
                        List.of("p", owner.publicKeyHex(), "owner"),
                        List.of("p", admin.publicKeyHex(), "admin"));
        assertThat(ofKind(events, Kinds.CHANNEL_MEMBERS).tags())
                .containsExactlyInAnyOrder(
                        List.of("d", channel.toString()),
                        List.of("p", owner.publicKeyHex()),
                        List.of("p", admin.publicKeyHex()),
                        List.of("p", member.publicKeyHex()));
        assertThat(query(member, ALL_KINDS + ",\"#d\":[\"" + channel + "\"]").body())
                .as("the same state reads as the same bytes")
                .isEqualTo(query(member, ALL_KINDS + ",\"#d\":[\"" + channel + "\"]")
                        .body());
        assertThat(events).isSortedAccordingTo((a, b) -> Long.compare(b.createdAt(), a.createdAt()));
    }

    @Test
    void aNonMemberSeesNothingOfAPrivateChannelNorAnUnlistedOneInABroadListing() {
        UUID secret = channel("private");
        UUID unlisted = channel("open", tag(Tags.UNLISTED, "true"));
        UUID listed = channel("open");
        UUID ephemeral = channel("open", tag(Tags.TTL, "60"));

        assertThat(events(outsider, ALL_KINDS + ",\"#d\":[\"" + secret + "\"]")).isEmpty();
        Reply broad = query(outsider, ALL_KINDS);
        assertThat(broad.body()).doesNotContain(secret.toString()).doesNotContain(unlisted.toString());
        assertThat(channels(parse(broad))).contains(listed, ephemeral);

        List<Event> byId = events(outsider, "\"kinds\":[39000],\"#d\":[\"" + unlisted + "\"]");
        assertThat(byId).as("knowing the id is enough for an unlisted channel").hasSize(1);
        assertThat(byId.get(0).tags()).contains(List.of("hidden"));

        assertThat(channels(events(owner, ALL_KINDS)))
                .as("its owner is a member")
                .contains(secret, unlisted);
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, secret, outsider.publicKeyHex(), null)));
        assertThat(channels(events(outsider, ALL_KINDS))).contains(secret);
        accepted(client.publish(owner, membership(owner, Kinds.REMOVE_MEMBER, secret, outsider.publicKeyHex(), null)));
        assertThat(query(outsider, ALL_KINDS).body()).doesNotContain(secret.toString());
        assertThat(events(outsider, ALL_KINDS + ",\"#d\":[\"" + secret + "\"]")).isEmpty();
    }

    @Test
    void aChannelMadePrivateOrDeletedLeavesTheListing() {
        UUID channel = channel("open");
        assertThat(channels(events(outsider, "\"kinds\":[39000]"))).contains(channel);
        accepted(client.publish(owner, editChannel(owner, channel, tag(Tags.VISIBILITY, "private"))));
        assertThat(query(outsider, ALL_KINDS).body()).doesNotContain(channel.toString());
        accepted(client.publish(owner, editChannel(owner, channel, tag(Tags.VISIBILITY, "open"))));
        assertThat(channels(events(outsider, "\"kinds\":[39000]"))).contains(channel);
        accepted(client.publish(
                owner, sign(owner, Kinds.DELETE_CHANNEL, List.of(tag(Tags.CHANNEL, channel.toString())), "")));
        assertThat(query(owner, ALL_KINDS + ",\"#d\":[\"" + channel + "\"]").json())
                .isEmpty();
    }

    @Test
    void aMembershipChangeChangesOnlyTheMembershipEvents() {
        UUID channel = channel("open");
        String one = ",\"#d\":[\"" + channel + "\"]";
        Event metadata = ofKind(events(owner, ALL_KINDS + one), Kinds.CHANNEL_METADATA);
        Event members = ofKind(events(owner, ALL_KINDS + one), Kinds.CHANNEL_MEMBERS);
        accepted(client.publish(member, membership(member, Kinds.JOIN, channel, null, null)));
        List<Event> after = events(owner, ALL_KINDS + one);
        assertThat(ofKind(after, Kinds.CHANNEL_METADATA)).isEqualTo(metadata);
        assertThat(ofKind(after, Kinds.CHANNEL_MEMBERS).id()).isNotEqualTo(members.id());
        assertThat(ofKind(after, Kinds.CHANNEL_MEMBERS).tags()).contains(List.of("p", member.publicKeyHex()));
        assertThat(ofKind(after, Kinds.CHANNEL_MEMBERS).createdAt()).isGreaterThanOrEqualTo(members.createdAt());

        accepted(client.publish(owner, editChannel(owner, channel, tag(Tags.CHANNEL_NAME, "renamed"))));
        assertThat(ofKind(events(owner, "\"kinds\":[39000]" + one), Kinds.CHANNEL_METADATA)
                        .tags())
                .contains(List.of("name", "renamed"));
    }

    @Test
    void authorsSinceUntilAndLimitNarrowTheAnswer() {
        UUID channel = channel("open");
        String one = ",\"#d\":[\"" + channel + "\"]";
        long createdAt = events(owner, "\"kinds\":[39000]" + one).get(0).createdAt();
        assertThat(events(owner, ALL_KINDS + one + ",\"authors\":[\"" + relayKey + "\"]"))
                .hasSize(3);
        assertThat(events(owner, ALL_KINDS + one + ",\"authors\":[\"" + owner.publicKeyHex() + "\"]"))
                .as("only the relay signs channel metadata")
                .isEmpty();
        assertThat(events(owner, ALL_KINDS + one + ",\"since\":" + createdAt)).hasSize(3);
        assertThat(events(owner, ALL_KINDS + one + ",\"since\":" + (createdAt + 3600)))
                .isEmpty();
        assertThat(events(owner, ALL_KINDS + one + ",\"until\":" + (createdAt - 3600)))
                .isEmpty();
        assertThat(events(owner, ALL_KINDS + one + ",\"limit\":2")).hasSize(2);

        List<Event> all = events(owner, "\"kinds\":[39000],\"limit\":1000");
        List<Event> first = events(owner, "\"kinds\":[39000],\"limit\":1");
        assertThat(first).containsExactly(all.get(0));
    }

    @Test
    void otherFiltersWithoutArtifactAreRefused() {
        assertInvalid("[{}]");
        assertInvalid("[{\"kinds\":[1]}]");
        assertInvalid("[{\"kinds\":[39000,39003]}]");
        assertInvalid("[{\"kinds\":[]}]");
        assertInvalid("[{\"kinds\":\"39000\"}]");
        assertInvalid("[{\"kinds\":[39000],\"#h\":[\"" + newId() + "\"]}]");
        assertInvalid("[{\"kinds\":[39000],\"ids\":[\"" + "a".repeat(64) + "\"]}]");
        assertInvalid("[{\"kinds\":[39000],\"#d\":[]}]");
        assertInvalid("[{\"kinds\":[39000],\"#d\":[\"general\"]}]");
        assertInvalid("[{\"kinds\":[39000],\"#d\":" + uuidArray(101) + "}]");
        assertInvalid("[{\"kinds\":[39000],\"authors\":[\"ABC\"]}]");
        assertInvalid("[{\"kinds\":[39000],\"since\":-1}]");
        assertInvalid("[{\"kinds\":[39000],\"until\":\"now\"}]");
        assertInvalid("[{\"kinds\":[39000],\"limit\":0}]");
        assertInvalid("[{\"kinds\":[39000],\"limit\":1001}]");
    }

    private void assertInvalid(String body) {
        Reply reply = client.query(outsider, body);
        assertThat(reply.status()).as(body + " -> " + reply).isEqualTo(400);
        assertThat(reply.error()).as(body).startsWith("invalid: ");
    }

    @SafeVarargs
    private UUID channel(String visibility, List<String>... extra) {
        UUID channel = newId();
        accepted(client.publish(owner, createChannel(owner, channel, visibility, extra)));
        return channel;
    }

    private Reply query(NostrKeys who, String filter) {
        Reply reply = client.query(who, "[{" + filter + "}]");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply;
    }

    private List<Event> events(NostrKeys who, String filter) {
        return parse(query(who, filter));
    }

    private static List<Event> parse(Reply reply) {
        return StreamSupport.stream(reply.json().spliterator(), false)
                .map(Event::fromJson)
                .toList();
    }

    private static Event ofKind(List<Event> events, int kind) {
        return events.stream().filter(e -> e.kind() == kind).findFirst().orElseThrow();
    }

    private static List<UUID> channels(List<Event> events) {
        return events.stream()
                .map(e -> UUID.fromString(e.tags().get(0).get(1)))
                .distinct()
                .toList();
    }
}
