package chat.buzz.relay.info;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PROTOCOL 6: the NIP-11 document, without auth and open to any origin. */
@IntegrationTest
class InformationDocumentTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private final RelayClient client = RELAY.client();

    @Test
    void servesTheDocumentWithoutAuth() {
        Reply reply = client.send(
                client.request("/").header("Accept", "application/nostr+json").GET());
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.response().headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/nostr+json"));
        assertThat(reply.response().headers().firstValue("Access-Control-Allow-Origin"))
                .hasValue("*");
        JsonNode document = reply.json();
        assertThat(document.get("supported_nips").toString()).isEqualTo("[1,11,29,42,98]");
        String relayKey = NostrKeys.fromSecretHex("0".repeat(63) + "3").publicKeyHex();
        assertThat(document.get("pubkey").asText()).isEqualTo(relayKey);
        assertThat(document.get("self").asText())
                .as("NIP-11 self is the relay's own key")
                .isEqualTo(relayKey);
        assertThat(document.get("capabilities").isArray()).isTrue();
        assertThat(document.get("capabilities")).isEmpty();
        JsonNode artifacts = document.get("artifacts");
        assertThat(artifacts.get("revision_kind").asInt()).isEqualTo(Kinds.ARTIFACT_REVISION);
        assertThat(artifacts.get("removal_kind").asInt()).isEqualTo(Kinds.REMOVAL_MARKER);
        assertThat(artifacts.get("query").asText()).isEqualTo("/query");
        assertThat(artifacts.get("modes").toString()).isEqualTo("[\"current\",\"incremental\"]");
        int overlap = RELAY.configuration().getIncremental().getOverlapSeconds();
        assertThat(artifacts.get("incremental").toString())
                .isEqualTo("{\"page_size\":100,\"max_limit\":1000,\"overlap_seconds\":" + overlap
                        + ",\"max_ids\":100,\"max_scope\":100,\"policy_changes\":\"reset\"}");
    }

    @Test
    void answersCorsPreflight() {
        Reply reply = client.send(client.request("/")
                .header("Origin", "https://app.example")
                .header("Access-Control-Request-Method", "GET")
                .method("OPTIONS", java.net.http.HttpRequest.BodyPublishers.noBody()));
        assertThat(reply.status()).isEqualTo(204);
        assertThat(reply.response().headers().firstValue("Access-Control-Allow-Origin"))
                .hasValue("*");
    }
}
