package chat.buzz.relay.web;

import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input catalogue: every kind of broken input (BadInputs) on every input path. Each row must
 * be answered with a 4xx and a JSON error (on the WebSocket: a NOTICE or CLOSED "invalid: ..."), store
 * nothing, and leave the relay answering the next good request.
 */
@IntegrationTest
class BadInputCatalogueTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("gates.incremental", "true"));

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final NostrKeys ALICE = BadInputs.CALLER;
    private static SyncSocket sync;

    @BeforeAll
    static void connect() {
        sync = SyncSocket.connect(RELAY.baseUrl());
        sync.authenticateOk(ALICE);
    }

    @AfterAll
    static void disconnect() {
        sync.close();
    }

    static Stream<BadInputs.Row> httpRows() {
        return Stream.of(BadInputs.events(), BadInputs.currentQueries(), BadInputs.incrementalQueries())
                .flatMap(List::stream);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("httpRows")
    void httpBodies(BadInputs.Row row) {
        Map<String, Long> before = storedRows();
        Reply reply = RELAY.client().post(ALICE, row.path(), row.body());
        assertThat(reply.status()).as("%s: %s", row, reply).isBetween(400, 499);
        if (row.expectedStatus() != 0) {
            assertThat(reply.status()).as("%s: %s", row, reply).isEqualTo(row.expectedStatus());
        }
        JsonNode body = jsonObject(reply.body(), row);
        // Writes answer in the shape of PROTOCOL 3 ("message"); a body refused before it is read, in the generic one.
        String error = body.has("message")
                ? body.path("message").asText()
                : body.path("error").asText();
        assertThat(error).as("%s: %s", row, reply).isNotBlank();
        assertThat(storedRows()).as("%s stored nothing", row).isEqualTo(before);
        assertStillAnswering();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chat.buzz.relay.web.BadInputs#webSocketFrames")
    void webSocketFrames(String name, String frame) {
        int seen = sync.received().size();
        sync.send(frame);
        JsonNode answer = await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> sync.received().stream()
                                .skip(seen)
                                .filter(m -> verb(m).equals("NOTICE") || verb(m).equals("CLOSED"))
                                .findFirst(),
                        Optional::isPresent)
                .get();
        String message = answer.get(answer.size() - 1).asText();
        assertThat(message).as("%s: %s", name, answer).startsWith("invalid:");
        String subscription = "after-" + Math.abs(name.hashCode());
        sync.subscribe(subscription, "{\"artifact\":\"sync\"}");
        sync.awaitEose(subscription);
        sync.send("[\"CLOSE\",\"" + subscription + "\"]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chat.buzz.relay.web.BadInputs#adminApiBodies")
    void adminApiBodies(String name, byte[] body, int expectedStatus) {
        long history = flagHistory();
        AdminClient.Reply reply = RELAY.admin()
                .send(HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/api/flags"))
                        .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                        .header("X-Buzz-Operator", "1")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
        assertThat(reply.status()).as("%s: %s", name, reply.body()).isEqualTo(expectedStatus);
        assertThat(jsonObject(reply.body(), name).path("error").asText()).isNotBlank();
        assertThat(flagHistory()).as("%s changed no flag", name).isEqualTo(history);
        assertThat(RELAY.admin().get("/api/whoami").status()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chat.buzz.relay.web.BadInputs#adminTaskParameters")
    void adminTasks(String name, String task, Map<String, String> parameters) {
        long history = flagHistory();
        AdminClient.Reply reply = RELAY.admin().task(task, parameters);
        assertThat(reply.status()).as("%s: %s", name, reply.body()).isBetween(400, 499);
        assertThat(jsonObject(reply.body(), name).path("error").asText()).isNotBlank();
        assertThat(flagHistory()).as("%s changed no flag", name).isEqualTo(history);
        assertThat(RELAY.admin().get("/api/whoami").status()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chat.buzz.relay.web.BadInputs#oversizedHeaders")
    void oversizedHeaders(String name, String path) throws java.io.IOException {
        // Over a plain socket, as JsonErrorsTest does: the relay answers before reading the rest of the
        // header, and java.net.http may report the early close instead of the answer.
        String reply = RawHttp.exchange(
                RELAY.baseUrl(),
                "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: "
                        + "p".repeat(BadInputs.OVERSIZED_HEADER_BYTES) + "\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 2\r\nConnection: close\r\n\r\n[]");
        assertThat(RawHttp.jsonError(reply, 431).path("error").asText())
                .as(name)
                .isNotBlank();
        assertStillAnswering();
    }

    private static JsonNode jsonObject(String body, Object row) {
        JsonNode parsed;
        try {
            parsed = JSON.readTree(body);
        } catch (java.io.IOException e) {
            throw new AssertionError(row + ": the error is not JSON: " + body, e);
        }
        assertThat(parsed != null && parsed.isObject())
                .as("%s: a JSON object: %s", row, body)
                .isTrue();
        return parsed;
    }

    private static void assertStillAnswering() {
        Reply good = RELAY.client().query(ALICE, "[{\"artifact\":\"current\",\"limit\":1}]");
        assertThat(good.status()).as("the relay still answers: %s", good).isEqualTo(200);
    }

    private static Map<String, Long> storedRows() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT (SELECT count(*) FROM events) AS events,"
                                + " (SELECT count(*) FROM artifact_heads) AS heads, (SELECT count(*) FROM channels) AS channels,"
                                + " (SELECT count(*) FROM channel_members) AS members")
                        .map((rs, ctx) -> Map.of(
                                "events",
                                rs.getLong("events"),
                                "heads",
                                rs.getLong("heads"),
                                "channels",
                                rs.getLong("channels"),
                                "members",
                                rs.getLong("members")))
                        .one());
    }

    private static long flagHistory() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM feature_flag_history")
                        .mapTo(Long.class)
                        .one());
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
