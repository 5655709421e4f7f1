package chat.buzz.relay.docs;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Nip42;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.Nip98Result;
import chat.buzz.protocol.Nip98Verifier;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the worked examples of docs/protocol.md against a real relay, in the order of {@link #EXAMPLES}, and
 * holds each documented answer to the real one ({@link Bindings}). The examples sign with the secret key
 * 1 ("alice"), so their events are sent as printed; only the NIP-98 headers and the NIP-42 answer are signed
 * afresh, since they are bound to the time, the port and the connection.
 */
@IntegrationTest
class ProtocolExamplesTest {
    private static final Path DOCUMENT = Path.of("..", "docs", "protocol.md");
    private static final NostrKeys ALICE =
            NostrKeys.fromSecretHex("0000000000000000000000000000000000000000000000000000000000000001");

    private static final String WEBSOCKET_EXAMPLE = "websocket-sync";

    /**
     * Every example of the page, in the order they run: each depends on the writes before it. The one WebSocket
     * example is a whole conversation; the others are one HTTP request and its answer each.
     */
    private static final List<String> EXAMPLES = List.of(
            "write-channel",
            "write-create",
            "write-create-second",
            "read-current",
            "read-bootstrap",
            "write-update",
            "write-delete",
            "read-delta",
            "read-known-ids",
            "read-digest",
            "error-write-conflict",
            "error-incremental",
            "error-nip98",
            WEBSOCKET_EXAMPLE,
            "write-restore");

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.sync", "true"));

    private static DocExamples examples;

    @BeforeAll
    static void readDocument() throws Exception {
        examples = DocExamples.read(DOCUMENT);
    }

    @Test
    void thePageHoldsExactlyTheExamplesThisTestRuns() {
        assertEquals(new TreeSet<>(EXAMPLES), examples.names(), "example blocks of docs/protocol.md");
        EXAMPLES.forEach(name -> {
            examples.example(name);
            if (!name.equals(WEBSOCKET_EXAMPLE)) {
                examples.response(name);
            }
        });
        assertFalse(
                examples.responses().containsKey(WEBSOCKET_EXAMPLE),
                "the WebSocket example holds its answers itself; a response block for it would never be checked");
    }

    @Test
    void theDocumentedNip98HeaderIsValidForItsRequest() {
        HttpExample request = HttpExample.parse(examples.example("write-channel"));
        String header = request.headers().get("Authorization");
        byte[] body = request.body().getBytes(StandardCharsets.UTF_8);
        Event auth = Event.parse(
                new String(Base64.getDecoder().decode(header.substring("Nostr ".length())), StandardCharsets.UTF_8));
        Clock signedAt = Clock.fixed(Instant.ofEpochSecond(auth.createdAt()), ZoneOffset.UTC);
        String url = "http://" + request.headers().get("Host") + request.path();

        Nip98Result verdict = new Nip98Verifier(signedAt).verify(header, request.method(), url, body);

        assertEquals(ALICE.publicKeyHex(), verdict.pubkey(), "the header verifies as alice's, for " + url);
    }

    @Test
    void everyExampleAnswersAsDocumented() {
        Bindings bindings = new Bindings();
        RelayClient client = RELAY.client();
        for (String name : EXAMPLES) {
            if (name.equals(WEBSOCKET_EXAMPLE)) {
                runWebSocket(examples.example(name), bindings);
            } else {
                runHttp(name, client, bindings);
            }
        }
    }

    private static void runHttp(String name, RelayClient client, Bindings bindings) {
        HttpExample request = HttpExample.parse(examples.example(name));
        HttpExample documented = HttpExample.parse(examples.response(name));
        byte[] body = bindings.substitute(request.body()).getBytes(StandardCharsets.UTF_8);
        var builder = client.request(request.path())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (request.headers().containsKey("Authorization")) {
            builder.header(
                    "Authorization",
                    Nip98.authorizationHeader(
                            ALICE, request.method(), client.baseUrl() + request.path(), body, Nostr.now()));
        }
        RelayClient.Reply reply = client.send(builder);

        assertEquals(documented.status(), reply.status(), name + ": status; the relay answered " + reply);
        documented
                .headers()
                .forEach((header, value) -> assertEquals(
                        value,
                        reply.response().headers().firstValue(header).orElse(null),
                        name + ": header " + header));
        bindings.expect(name, parse(documented.body()), reply.json());
    }

    /** Lines {@code → <frame>} are sent, lines {@code ← <frame>} must arrive in that order; others are prose. */
    private static void runWebSocket(String conversation, Bindings bindings) {
        try (SyncSocket socket = SyncSocket.connect(RELAY.baseUrl())) {
            int received = 0;
            for (String line : conversation.split("\n")) {
                if (line.startsWith("→ ")) {
                    socket.send(outgoing(parse(line.substring(2)), socket, bindings));
                } else if (line.startsWith("← ")) {
                    int index = received++;
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> socket.received().size() > index);
                    JsonNode documented = parse(line.substring(2));
                    JsonNode real = socket.received().get(index);
                    if (SyncSocket.verb(documented).equals("AUTH")) {
                        bindings.learn("AUTH challenge", documented.get(1), real.get(1));
                    } else {
                        bindings.expect(WEBSOCKET_EXAMPLE + " frame " + index, documented, real);
                    }
                }
            }
            assertEquals(received, socket.received().size(), "frames beyond the example: " + socket.received());
        }
    }

    /**
     * An AUTH answer is checked as documented (valid for the documented challenge and URL) and then signed
     * afresh for this connection; any other frame is sent as documented.
     */
    private static String outgoing(JsonNode frame, SyncSocket socket, Bindings bindings) {
        if (!SyncSocket.verb(frame).equals("AUTH")) {
            return bindings.substitute(frame.toString());
        }
        Event documented = Event.fromJson(frame.get(1));
        String challenge = documented.tag(Tags.CHALLENGE).orElseThrow();
        String relay = documented.tag(Tags.RELAY_URL).orElseThrow();
        Clock signedAt = Clock.fixed(Instant.ofEpochSecond(documented.createdAt()), ZoneOffset.UTC);
        assertEquals(ALICE.publicKeyHex(), Nip42.verify(documented, relay, challenge, signedAt), "documented AUTH");
        Event real = Nip42.authEvent(ALICE, socket.url(), bindings.substitute(challenge), Nostr.now());
        bindings.bind(documented.id(), real.id());
        return "[\"AUTH\"," + real.toJson() + "]";
    }

    private static JsonNode parse(String json) {
        try {
            return RelayClient.JSON.readTree(json);
        } catch (IOException e) {
            throw new AssertionError("an example is not JSON: " + json, e);
        }
    }
}
