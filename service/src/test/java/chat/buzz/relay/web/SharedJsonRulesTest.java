package chat.buzz.relay.web;

import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.StrictJson;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every input path reads JSON by the same rules (StrictJson): a duplicate key or a document nested
 * too deep is refused on HTTP, on the WebSocket and on the admin API alike, so no path can be shown a
 * value another path never checked.
 */
@IntegrationTest
class SharedJsonRulesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("gates.incremental", "true"));

    private static final String TOO_DEEP =
            "[".repeat(StrictJson.MAX_NESTING_DEPTH + 1) + "]".repeat(StrictJson.MAX_NESTING_DEPTH + 1);

    private final NostrKeys alice = NostrKeys.generate();
    private final RelayClient client = RELAY.client();

    @Test
    void httpQueriesRefuseDuplicateKeysAndDeepNesting() {
        assertRefused(client.post(alice, "/query", "[{\"artifact\":\"current\",\"artifact\":\"current\"}]"));
        assertRefused(client.post(alice, "/query", "[{\"artifact\":\"incremental\",\"limit\":5,\"limit\":6}]"));
        assertRefused(client.post(alice, "/query", "[{\"artifact\":\"current\",\"#t\":" + TOO_DEEP + "}]"));
    }

    @Test
    void eventBodiesRefuseDuplicateKeysAndDeepNesting() {
        Reply duplicate = client.post(alice, "/events", "{\"content\":\"a\",\"content\":\"b\"}");
        assertRefused(duplicate);
        assertThat(duplicate.message()).startsWith("invalid:");
        assertRefused(client.post(alice, "/events", "{\"tags\":" + TOO_DEEP + "}"));
    }

    @Test
    void webSocketFramesRefuseADuplicateArtifactKey() {
        try (SyncSocket sync = SyncSocket.connect(RELAY.baseUrl())) {
            sync.authenticateOk(alice);
            assertNotice(sync, "[\"REQ\",\"dup\",{\"artifact\":\"x\",\"artifact\":\"sync\"}]");
            assertThat(sync.hasEose("dup"))
                    .as("the duplicate-key REQ must not subscribe")
                    .isFalse();
            assertNotice(sync, "[\"REQ\",\"deep\",{\"artifact\":\"sync\",\"#h\":" + TOO_DEEP + "}]");
            // The connection still serves a well-formed subscription, which proves the refusals were not lost frames.
            sync.subscribe("fine", "{\"artifact\":\"sync\"}");
            sync.awaitEose("fine");
            assertThat(sync.hasEose("dup")).isFalse();
            assertThat(sync.closedReason("dup")).isEmpty();
        }
    }

    @Test
    void adminApiBodiesRefuseDuplicateKeys() {
        AdminClient admin = RELAY.admin();
        AdminClient.Reply reply = admin.send(
                HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/api/flags"))
                        .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                        .header("X-Buzz-Operator", "1")
                        .header("Content-Type", "application/json")
                        .POST(
                                HttpRequest.BodyPublishers.ofString(
                                        "{\"gate\":\"incremental\",\"value\":\"off\",\"value\":\"on\",\"reason\":\"duplicate keys\"}")));
        assertThat(reply.status()).as(reply.body()).isEqualTo(400);
        assertThat(reply.json().get("error").asText()).isEqualTo("invalid_json");
        assertThat(admin.get("/api/flags").body())
                .as("the flag was not flipped")
                .doesNotContain("duplicate keys");
    }

    private static void assertRefused(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.json().isObject()).as(reply.toString()).isTrue();
    }

    private static void assertNotice(SyncSocket sync, String frame) {
        int before = sync.received().size();
        sync.send(frame);
        Optional<JsonNode> notice = await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> sync.received().stream()
                                .skip(before)
                                .filter(m -> verb(m).equals("NOTICE"))
                                .findFirst(),
                        Optional::isPresent);
        assertThat(notice.get().get(1).asText()).as(frame).isEqualTo("invalid: message is not JSON");
    }
}
