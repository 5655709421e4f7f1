package chat.buzz.relay.query;

import static chat.buzz.relay.testing.Nostr.createChannel;
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
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** POST /query, mode "current": read access, filters, order and paging. */
@IntegrationTest
class CurrentReadsTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();
    private final RelayClient client = RELAY.client();

    @Test
    void privateChannelsAreReadByActiveMembersOnly() {
        UUID channel = channel("private");
        Event task = write(channel, "secret", 100, List.of());
        assertThat(ids(query(reader, "\"#h\":[\"" + channel + "\"]"))).isEmpty();
        accepted(client.publish(owner, membership(owner, Kinds.ADD_MEMBER, channel, reader.publicKeyHex(), null)));
        assertThat(ids(query(reader, "\"#h\":[\"" + channel + "\"]"))).containsExactly(task.id());
        accepted(client.publish(owner, membership(owner, Kinds.REMOVE_MEMBER, channel, reader.publicKeyHex(), null)));
        assertThat(ids(query(reader, "\"#h\":[\"" + channel + "\"]"))).isEmpty();
    }

    @Test
    void deletedChannelsAreNotRead() {
        UUID channel = channel("open");
        write(channel, "t", 100, List.of());
        accepted(client.publish(
                owner, sign(owner, Kinds.DELETE_CHANNEL, List.of(tag(Tags.CHANNEL, channel.toString())), "")));
        assertThat(ids(query(owner, "\"#h\":[\"" + channel + "\"]"))).isEmpty();
    }

    @Test
    void newestFirstWithTagFiltersLimitAndOffset() {
        UUID channel = channel("open");
        Event old = write(channel, "old", 100, List.of(tag("t", "red")));
        Event mid = write(channel, "mid", 200, List.of(tag("t", "blue")));
        Event fresh = write(channel, "new", 300, List.of(tag("t", "red")));
        String scope = "\"#h\":[\"" + channel + "\"]";
        assertThat(ids(query(reader, scope))).containsExactly(fresh.id(), mid.id(), old.id());
        assertThat(ids(query(reader, scope + ",\"#t\":[\"red\"]"))).containsExactly(fresh.id(), old.id());
        assertThat(ids(query(reader, scope + ",\"#t\":[\"green\"]"))).isEmpty();
        assertThat(ids(query(reader, scope + ",\"limit\":1,\"offset\":1"))).containsExactly(mid.id());
        assertThat(ids(query(
                        reader,
                        scope + ",\"#d\":[\"" + old.tag(Tags.ARTIFACT_ID).orElseThrow() + "\"]")))
                .containsExactly(old.id());
    }

    @Test
    void unscopedReadsFollowDiscoverySoUnlistedChannelsStayUnnamed() {
        UUID unlisted = newId();
        accepted(client.publish(owner, createChannel(owner, unlisted, "open", tag(Tags.UNLISTED, "true"))));
        UUID ttl = newId();
        accepted(client.publish(owner, createChannel(owner, ttl, "open", tag(Tags.TTL, "3600"))));
        UUID listed = channel("open");
        Event hidden = write(unlisted, "unlisted", Nostr.now(), List.of());
        Event ephemeral = write(ttl, "ttl", Nostr.now(), List.of());
        Event visible = write(listed, "listed", Nostr.now(), List.of());
        String everything = "\"limit\":1000";

        assertThat(ids(query(reader, everything)))
                .contains(visible.id(), ephemeral.id())
                .doesNotContain(hidden.id());
        assertThat(query(reader, everything).toString()).doesNotContain(unlisted.toString());
        assertThat(ids(query(reader, "\"#t\":[\"nothing-matches\"]"))).isEmpty();
        assertThat(ids(query(reader, "\"#h\":[\"" + unlisted + "\"]"))).containsExactly(hidden.id());
        assertThat(ids(query(reader, "\"#d\":[\"" + hidden.tag(Tags.ARTIFACT_ID).orElseThrow() + "\"]")))
                .containsExactly(hidden.id());
        assertThat(ids(query(owner, everything)))
                .as("the owner is an active member")
                .contains(hidden.id());

        accepted(client.publish(reader, membership(reader, Kinds.JOIN, unlisted, null, null)));
        assertThat(ids(query(reader, everything))).as("a member discovers it").contains(hidden.id());
        accepted(client.publish(reader, membership(reader, Kinds.LEAVE, unlisted, null, null)));
        assertThat(ids(query(reader, everything))).as("and stops after leaving").doesNotContain(hidden.id());
    }

    @Test
    void tagFiltersMatchNameAndValueInPlaceAcrossSeveralKeys() {
        UUID channel = channel("open");
        Event both = write(channel, "both", 100, List.of(tag("t", "red"), tag("p", "alpha", "extra")));
        Event onlyT = write(channel, "onlyT", 200, List.of(tag("t", "blue")));
        Event swapped = write(channel, "swapped", 300, List.of(tag("red", "t"), tag("x", "t", "red")));
        String scope = "\"#h\":[\"" + channel + "\"]";
        assertThat(ids(query(reader, scope + ",\"#t\":[\"red\",\"blue\"]"))).containsExactly(onlyT.id(), both.id());
        assertThat(ids(query(reader, scope + ",\"#t\":[\"red\",\"blue\"],\"#p\":[\"alpha\"]")))
                .containsExactly(both.id());
        assertThat(ids(query(reader, scope + ",\"#t\":[\"blue\"],\"#p\":[\"alpha\"]")))
                .isEmpty();
        assertThat(ids(query(reader, scope + ",\"#p\":[\"extra\"]")))
                .as("only the first value counts")
                .isEmpty();
        assertThat(ids(query(reader, scope + ",\"#x\":[\"red\"]")))
                .as("position matters")
                .isEmpty();
        assertThat(ids(query(reader, scope + ",\"#red\":[\"t\"]"))).containsExactly(swapped.id());
    }

    @Test
    void atMostSixteenTagKeysAndAThousandValuesInAll() {
        assertThat(query(reader, tagKeys(16, 1)).isArray()).isTrue();
        assertInvalid("[{\"artifact\":\"current\"," + tagKeys(17, 1) + "}]");
        assertThat(query(reader, tagKeys(10, 100)).isArray()).isTrue();
        assertInvalid("[{\"artifact\":\"current\"," + tagKeys(11, 100) + "}]");
        assertInvalid("[{\"artifact\":\"current\",\"#h\":" + uuidArray(600) + ",\"#d\":" + uuidArray(401) + "}]");
        // Once far past PostgreSQL's bind parameter limit, which answered 500.
        Reply many = client.query(reader, "[{\"artifact\":\"current\"," + tagKeys(17_000, 1) + "}]");
        assertThat(many.status()).as(many.toString()).isEqualTo(400);
        assertThat(many.error()).startsWith("invalid: ").contains("16");
    }

    @Test
    void badFiltersAreRefused() {
        assertInvalid("[]");
        assertInvalid("[{\"artifact\":\"current\"},{\"artifact\":\"current\"}]");
        assertInvalid("{\"artifact\":\"current\"}");
        assertInvalid("[{\"artifact\":\"everything\"}]");
        assertInvalid("[{}]");
        assertInvalid("[{\"artifact\":\"current\",\"limit\":0}]");
        assertInvalid("[{\"artifact\":\"current\",\"limit\":1001}]");
        assertInvalid("[{\"artifact\":\"current\",\"limit\":\"10\"}]");
        assertInvalid("[{\"artifact\":\"current\",\"offset\":10001}]");
        assertInvalid("[{\"artifact\":\"current\",\"#h\":[\"not-a-uuid\"]}]");
        assertInvalid("[{\"artifact\":\"current\",\"#h\":[]}]");
        assertInvalid("[{\"artifact\":\"current\",\"#t\":[1]}]");
        assertInvalid("[{\"artifact\":\"current\",\"authors\":[\"x\"]}]");
        assertInvalid("[{\"artifact\":\"current\"}] trailing");
        assertInvalid("[{\"artifact\":\"current\",\"limit\":1,\"limit\":2}]");
    }

    @Test
    void nulCharactersInFiltersAreRefused() {
        assertInvalid("[{\"artifact\":\"current\",\"#t\":[\"red\\u0000\"]}]");
        assertInvalid("[{\"artifact\":\"current\",\"#t\\u0000\":[\"red\"]}]");
        assertInvalid("[{\"artifact\":\"current\",\"#\\u0000\":[\"red\"]}]");
    }

    @Test
    void incrementalIsUnavailableWhileItsGateIsOff() {
        Reply reply = client.query(reader, "[{\"artifact\":\"incremental\"}]");
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.error()).isEqualTo("incremental_unavailable");
    }

    private static String tagKeys(int keys, int valuesEach) {
        List<String> filters = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            List<String> values = new ArrayList<>();
            for (int v = 0; v < valuesEach; v++) {
                values.add("\"v" + v + "\"");
            }
            filters.add("\"#k" + k + "\":[" + String.join(",", values) + "]");
        }
        return String.join(",", filters);
    }

    private void assertInvalid(String body) {
        Reply reply = client.query(reader, body);
        assertThat(reply.status()).as(body + " -> " + reply).isEqualTo(400);
        assertThat(reply.error()).as(body).startsWith("invalid: ");
    }

    private UUID channel(String visibility) {
        UUID channel = newId();
        accepted(client.publish(owner, createChannel(owner, channel, visibility)));
        return channel;
    }

    private Event write(UUID channel, String title, long createdAt, List<List<String>> extra) {
        List<List<String>> tags = new ArrayList<>(List.of(
                tag(Tags.ARTIFACT_FLAG, "1"),
                tag(Tags.ARTIFACT_ID, newId().toString()),
                tag(Tags.CHANNEL, channel.toString()),
                tag(Tags.ARTIFACT_TYPE, "task.v1"),
                tag(Tags.OPERATION, "create"),
                tag(Tags.TITLE, title)));
        tags.addAll(extra);
        Event event = owner.sign(Kinds.ARTIFACT_REVISION, createdAt, tags, "");
        accepted(client.publish(owner, event));
        return event;
    }

    private JsonNode query(NostrKeys who, String filter) {
        Reply reply = client.query(who, "[{\"artifact\":\"current\"," + filter + "}]");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    private static List<String> ids(JsonNode events) {
        return StreamSupport.stream(events.spliterator(), false)
                .map(e -> e.get("id").asText())
                .toList();
    }
}
