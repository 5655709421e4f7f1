package chat.buzz.relay.query;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.revision;
import static chat.buzz.relay.testing.Replies.accepted;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reads splice each head into the response as the bytes the database holds: a title with two-,
 * three- and four-byte UTF-8 characters and characters JSON escapes must come back exactly as signed,
 * in mode current, in an incremental page and in a known-ID read.
 */
@IntegrationTest
class StoredEventBytesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private static final String TITLE = "é ü – 漢字 🎉 \"quoted\" back\\slash tab\t line\u2028sep";

    private final NostrKeys owner = NostrKeys.generate();
    private final RelayClient client = RELAY.client();

    @Test
    void everyReadReturnsTheHeadExactlyAsSigned() {
        UUID channel = newId();
        accepted(client.publish(owner, createChannel(owner, channel, "open")));
        UUID d = newId();
        Event head = revision(owner, d, channel, "create", null, TITLE);
        accepted(client.publish(owner, head));

        Reply current = client.query(owner, "[{\"artifact\":\"current\",\"#d\":[\"" + d + "\"]}]");
        Reply page = client.query(owner, "[{\"artifact\":\"incremental\",\"limit\":100}]");
        Reply known = client.query(owner, "[{\"artifact\":\"incremental\",\"#d\":[\"" + d + "\"]}]");

        for (Reply reply : new Reply[] {current, page, known}) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            assertThat(reply.body()).contains(head.toJson());
        }
        assertSigned(current.json().get(0), head);
        assertSigned(page.json().path("entries").get(0).path("event"), head);
        assertSigned(known.json().path("entries").get(0).path("event"), head);
    }

    /**
     * What is stored is the relay's own rendering of the accepted event (docs/protocol.md 4), not the
     * client's text: keys in a fixed order, no whitespace, the id's string escaping.
     */
    @Test
    void anEventSentInAnotherSpellingComesBackInTheRelaysRendering() {
        UUID channel = newId();
        // Private: the other test's whole-community page must not see this head.
        accepted(client.publish(owner, createChannel(owner, channel, "private")));
        UUID d = newId();
        Event head = revision(owner, d, channel, "create", null, "café a/b", "x/y");
        String canonical = head.toJson();
        String tags = canonical.substring(canonical.indexOf("\"tags\":") + 7, canonical.indexOf(",\"content\":"));
        String sent = "{ \"sig\" : \"" + head.sig() + "\",\n  \"content\": \"x\\/y\",\n  \"tags\": "
                + tags.replace("é", "\\u00e9").replace("a/b", "a\\/b") + ",\n  \"kind\": " + head.kind()
                + ", \"created_at\": " + head.createdAt() + ", \"pubkey\": \"" + head.pubkey() + "\", \"id\": \""
                + head.id() + "\" }";
        assertThat(sent).isNotEqualTo(canonical).contains("\\u00e9").contains("\\/");
        accepted(client.post(owner, "/events", sent));

        Reply current = client.query(owner, "[{\"artifact\":\"current\",\"#d\":[\"" + d + "\"]}]");
        assertThat(current.status()).as(current.body()).isEqualTo(200);
        assertThat(current.body()).isEqualTo("[" + canonical + "]");
        assertThat(canonical)
                .startsWith("{\"id\":\"" + head.id() + "\",\"pubkey\":")
                .contains("café a/b")
                .endsWith(",\"content\":\"x/y\",\"sig\":\"" + head.sig() + "\"}");
    }

    private static void assertSigned(JsonNode returned, Event head) {
        Event event = Event.parse(returned.toString());
        assertThat(event.id()).isEqualTo(head.id());
        assertThat(event.hasValidId()).isTrue();
        assertThat(event.hasValidSignature()).isTrue();
        assertThat(event.tags()).contains(java.util.List.of(Tags.TITLE, TITLE));
    }
}
