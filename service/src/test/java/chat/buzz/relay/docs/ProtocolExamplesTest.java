package chat.buzz.relay.docs;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.dropwizard.testing.ConfigOverride;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the worked examples of docs/protocol.md against a real relay, in the order of {@link #EXAMPLES}, and
 * holds each documented answer to the real one ({@link Bindings}; relay-signed events by {@link
 * RelaySignedEvents}). The examples sign with the secret keys 1 ("alice") and 2 ("bob"), so their events are
 * sent as printed; only the NIP-98 headers and the NIP-42 answers are signed afresh, since they are bound to
 * the time, the port and the connection.
 */
@IntegrationTest
class ProtocolExamplesTest {
    private static final Path DOCUMENT = Path.of("..", "docs", "protocol.md");
    private static final NostrKeys ALICE =
            NostrKeys.fromSecretHex("0000000000000000000000000000000000000000000000000000000000000001");
    private static final NostrKeys BOB =
            NostrKeys.fromSecretHex("0000000000000000000000000000000000000000000000000000000000000002");

    private static final String WEBSOCKET_EXAMPLE = "websocket-sync";
    private static final String CHANNELS_WEBSOCKET_EXAMPLE = "websocket-channels";
    /** Conversations: whole WebSocket exchanges, which hold their answers themselves. */
    private static final Set<String> CONVERSATIONS = Set.of(WEBSOCKET_EXAMPLE, CHANNELS_WEBSOCKET_EXAMPLE);
    /** A prose line of a conversation that runs an HTTP example at that point (a write the frames after it show). */
    private static final Pattern RUNS_HERE = Pattern.compile("^\\s*\\(example ([a-z0-9-]+) runs here\\b.*\\)$");
    /** HTTP examples that run only inside a conversation, where it names them. */
    private static final List<String> INSIDE_CONVERSATIONS = List.of("write-channel-private");

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
            "write-restore",
            "read-channels",
            CHANNELS_WEBSOCKET_EXAMPLE);

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.sync", "true"));

    private static DocExamples examples;
    /** The HTTP examples a conversation ran where it named them. */
    private final Set<String> ranInside = new TreeSet<>();

    @BeforeAll
    static void readDocument() throws Exception {
        examples = DocExamples.read(DOCUMENT);
    }

    @Test
    void thePageHoldsExactlyTheExamplesThisTestRuns() {
        Set<String> all = new TreeSet<>(EXAMPLES);
        all.addAll(INSIDE_CONVERSATIONS);
        assertEquals(all, examples.names(), "example blocks of docs/protocol.md");
        all.forEach(name -> {
            examples.example(name);
            if (!CONVERSATIONS.contains(name)) {
                examples.response(name);
            }
        });
        CONVERSATIONS.forEach(name -> assertFalse(
                examples.responses().containsKey(name),
                name + " holds its answers itself; a response block for it would never be checked"));
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
        RelaySignedEvents signed = new RelaySignedEvents(bindings, Instant.now());
        RelayClient client = RELAY.client();
        for (String name : EXAMPLES) {
            if (CONVERSATIONS.contains(name)) {
                runWebSocket(name, client, bindings, signed);
            } else {
                runHttp(name, client, bindings, signed);
            }
        }
        assertEquals(
                new TreeSet<>(INSIDE_CONVERSATIONS), ranInside, "examples a conversation runs where it names them");
    }

    private static void runHttp(String name, RelayClient client, Bindings bindings, RelaySignedEvents signed) {
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
        JsonNode answer = parse(documented.body());
        if (RelaySignedEvents.isListOfThem(answer)) {
            signed.expectList(name, list(answer), list(reply.json()));
        } else {
            bindings.expect(name, answer, reply.json());
        }
    }

    /**
     * Lines {@code → <frame>} are sent, lines {@code ← <frame>} must arrive in that order (a run of relay-signed
     * events as {@link RelaySignedEvents#expectList} orders them), a line {@code (example <name> runs here ...)}
     * runs that HTTP example at that point; others are prose.
     */
    private void runWebSocket(String name, RelayClient client, Bindings bindings, RelaySignedEvents signed) {
        List<String> lines = List.of(examples.example(name).split("\n"));
        try (SyncSocket socket = SyncSocket.connect(RELAY.baseUrl())) {
            int received = 0;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                Matcher write = RUNS_HERE.matcher(line);
                if (line.startsWith("→ ")) {
                    socket.send(outgoing(parse(line.substring(2)), socket, bindings));
                } else if (write.matches()) {
                    assertTrue(INSIDE_CONVERSATIONS.contains(write.group(1)), name + " runs " + write.group(1));
                    runHttp(write.group(1), client, bindings, signed);
                    ranInside.add(write.group(1));
                } else if (line.startsWith("← ")) {
                    List<JsonNode> documented = new ArrayList<>(List.of(parse(line.substring(2))));
                    while (isSignedEventFrame(documented.get(0))
                            && i + 1 < lines.size()
                            && lines.get(i + 1).startsWith("← ")
                            && isSignedEventFrame(parse(lines.get(i + 1).substring(2)))) {
                        documented.add(parse(lines.get(++i).substring(2)));
                    }
                    int first = received;
                    received += documented.size();
                    int until = received;
                    await().atMost(Duration.ofSeconds(20))
                            .until(() -> socket.received().size() >= until);
                    List<JsonNode> real = socket.received().subList(first, until);
                    String where = name + " frame " + first;
                    if (isSignedEventFrame(documented.get(0))) {
                        for (int f = 0; f < real.size(); f++) {
                            bindings.expect(
                                    where + "+" + f, withoutEvent(documented.get(f)), withoutEvent(real.get(f)));
                        }
                        signed.expectList(where, events(documented), events(real));
                    } else if (SyncSocket.verb(documented.get(0)).equals("AUTH")) {
                        bindings.learn(
                                where + " AUTH challenge",
                                documented.get(0).get(1),
                                real.get(0).get(1));
                    } else {
                        bindings.expect(where, documented.get(0), real.get(0));
                    }
                }
            }
            assertEquals(received, socket.received().size(), "frames beyond the example: " + socket.received());
        }
    }

    private static boolean isSignedEventFrame(JsonNode frame) {
        return SyncSocket.verb(frame).equals("EVENT") && RelaySignedEvents.isRelaySigned(frame.path(2));
    }

    /** An EVENT frame without its event: the verb and the subscription. */
    private static JsonNode withoutEvent(JsonNode frame) {
        ArrayNode copy = frame.deepCopy();
        copy.remove(2);
        return copy;
    }

    private static List<JsonNode> events(List<JsonNode> frames) {
        return frames.stream().map(frame -> frame.get(2)).toList();
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> items = new ArrayList<>();
        array.forEach(items::add);
        return items;
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
        NostrKeys signer = documented.pubkey().equals(BOB.publicKeyHex()) ? BOB : ALICE;
        assertEquals(signer.publicKeyHex(), Nip42.verify(documented, relay, challenge, signedAt), "documented AUTH");
        Event real = Nip42.authEvent(signer, socket.url(), bindings.substitute(challenge), Nostr.now());
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
