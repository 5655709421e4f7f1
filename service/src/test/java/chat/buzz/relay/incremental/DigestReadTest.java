package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Hex;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Sha256;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The digest read of PROTOCOL 4.4a, checked against the same digest computed here from a bootstrap. */
@IntegrationTest
class DigestReadTest {
    @Order(1)
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    @Order(2)
    @RegisterExtension
    static final TestRelay GATE_OFF =
            TestRelay.anotherInstance(RELAY, ConfigOverride.config("gates.incremental", "false"));

    private static final String ZEROS = "0".repeat(64);

    private final RelayClient relay = RELAY.client();
    private final Writer writer = new Writer(relay);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void theDigestIsTheXorOfWhatABootstrapOfTheSameReaderAndScopeReturns() {
        UUID open = writer.channel(owner, "open");
        UUID member = writer.channel(owner, "private");
        UUID notMember = writer.channel(owner, "private");
        UUID unlisted = writer.channel(owner, "open", tag(Tags.UNLISTED, "true"));
        writer.addMember(owner, member, reader);
        writer.createMany(owner, open, 3);
        UUID edited = writer.create(owner, open);
        writer.edit(owner, edited, "edited");
        UUID deleted = writer.create(owner, open);
        writer.delete(owner, deleted);
        UUID moved = writer.create(owner, open);
        writer.move(owner, moved, member);
        writer.createMany(owner, member, 2);
        writer.createMany(owner, notMember, 2);
        writer.createMany(owner, unlisted, 2);

        SyncingClient everything = new SyncingClient(relay, reader, List.of());
        everything.session();
        assertThat(everything.store).hasSize(7);
        assertDigestMatches(digest(reader, ""), everything.heads());

        List<String> scope = List.of(unlisted.toString(), member.toString());
        SyncingClient scoped = new SyncingClient(relay, reader, scope);
        scoped.session();
        assertThat(scoped.store).hasSize(5);
        assertDigestMatches(digest(reader, ",\"#h\":[\"" + unlisted + "\",\"" + member + "\"]"), scoped.heads());
    }

    @Test
    void anEmptySetIsCountZeroAndSixtyFourZeros() {
        JsonNode answer = digest(NostrKeys.generate(), ",\"#h\":[\"" + writer.channel(owner, "open") + "\"]");
        assertThat(answer.get("count").asLong()).isZero();
        assertThat(answer.get("digest").asText()).isEqualTo(ZEROS);
        assertThat(answer.get("policy").isTextual()).isTrue();
        assertThat(answer.size()).isEqualTo(3);
    }

    @Test
    void theDigestChangesWithAnEditAndComesBackWhenTheArtifactLeaves() {
        UUID channel = writer.channel(owner, "private");
        writer.addMember(owner, channel, reader);
        String scope = ",\"#h\":[\"" + channel + "\"]";
        writer.create(owner, channel);
        String before = digest(reader, scope).get("digest").asText();
        UUID d = writer.create(owner, channel);
        String withNew = digest(reader, scope).get("digest").asText();
        writer.edit(owner, d, "edited");
        String afterEdit = digest(reader, scope).get("digest").asText();
        assertThat(List.of(before, withNew, afterEdit)).doesNotHaveDuplicates();
        writer.delete(owner, d);
        assertThat(digest(reader, scope).get("digest").asText()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"artifact\":\"incremental\",\"digest\":false}",
                "{\"artifact\":\"incremental\",\"digest\":\"true\"}",
                "{\"artifact\":\"incremental\",\"digest\":1}",
                "{\"artifact\":\"incremental\",\"digest\":true,\"since\":\"abc\"}",
                "{\"artifact\":\"incremental\",\"digest\":true,\"limit\":5}",
                "{\"artifact\":\"incremental\",\"digest\":true,\"#d\":[\"0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00\"]}",
                "{\"artifact\":\"incremental\",\"digest\":true,\"#h\":[]}",
                "{\"artifact\":\"incremental\",\"digest\":true,\"#h\":[\"NOT-A-UUID\"]}",
                "{\"artifact\":\"incremental\",\"digest\":true,\"extra\":1}"
            })
    void badDigestRequestsAreInvalidRequest(String filter) {
        Reply reply = relay.query(reader, "[" + filter + "]");
        assertThat(reply.status()).as("%s", reply).isEqualTo(400);
        assertThat(reply.error()).isEqualTo("incremental_invalid_request");
        assertThat(reply.message()).isNotBlank();
    }

    @Test
    void aTtlChannelInTheScopeIsRefusedAsInADeltaRead() {
        UUID ttl = writer.channel(owner, "open", tag(Tags.TTL, "3600"));
        Reply reply = relay.query(reader, "[{\"artifact\":\"incremental\",\"digest\":true,\"#h\":[\"" + ttl + "\"]}]");
        assertThat(reply.status()).as("%s", reply).isEqualTo(422);
        assertThat(reply.error()).isEqualTo("incremental_ttl_channel");
        assertThat(reply.json().path("channel").asText()).isEqualTo(ttl.toString());
    }

    @Test
    void gateOffAnswersUnavailable() {
        Reply reply = GATE_OFF.client().query(reader, "[{\"artifact\":\"incremental\",\"digest\":true}]");
        assertThat(reply.status()).as("%s", reply).isEqualTo(503);
        assertThat(reply.error()).isEqualTo("incremental_unavailable");
    }

    private JsonNode digest(NostrKeys keys, String scopeMember) {
        Reply reply = relay.query(keys, "[{\"artifact\":\"incremental\",\"digest\":true" + scopeMember + "}]");
        assertThat(reply.status()).as("%s", reply).isEqualTo(200);
        return reply.json();
    }

    private static void assertDigestMatches(JsonNode answer, Map<String, String> heads) {
        assertThat(answer.get("count").asLong()).isEqualTo(heads.size());
        assertThat(answer.get("digest").asText()).isEqualTo(xorDigest(heads)).isNotEqualTo(ZEROS);
    }

    private static String xorDigest(Map<String, String> heads) {
        byte[] digest = new byte[32];
        heads.forEach((d, head) -> {
            UUID id = UUID.fromString(d);
            byte[] input = ByteBuffer.allocate(48)
                    .putLong(id.getMostSignificantBits())
                    .putLong(id.getLeastSignificantBits())
                    .put(Hex.decode(head, 32))
                    .array();
            byte[] member = Sha256.digest(input);
            for (int i = 0; i < digest.length; i++) {
                digest[i] ^= member[i];
            }
        });
        return Hex.encode(digest);
    }
}
