package chat.buzz.relay.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Sha256;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestDatabases;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every rejection of PROTOCOL 2.1 and 2.3, over real HTTP against the running relay. */
@IntegrationTest
class SignedHttpTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private static final String QUERY = "[{\"artifact\":\"current\"}]";
    private final NostrKeys alice = NostrKeys.generate();
    private final RelayClient client = RELAY.client();

    @Test
    void aCorrectlySignedRequestIsServed() {
        Reply reply = client.query(alice, QUERY);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().isArray()).isTrue();
    }

    @Test
    void noHeaderAtAll() {
        Reply reply = client.send(client.request("/query").POST(HttpRequest.BodyPublishers.ofString(QUERY)));
        assertThat(reply.status()).isEqualTo(401);
        assertThat(reply.error()).isEqualTo("missing Nostr auth");
    }

    @Test
    void unknownHostIsRefusedBeforeAuthentication() throws Exception {
        // java.net.http will not send a custom Host header, so speak HTTP/1.1 on a socket.
        String response = RawHttp.exchange(
                RELAY.baseUrl(),
                "POST /query HTTP/1.1\r\nHost: elsewhere.example\r\n"
                        + "Content-Length: 2\r\nConnection: close\r\n\r\n[]");
        assertThat(response).startsWith("HTTP/1.1 404");
        assertThat(response).contains("{\"error\":\"unknown community\"}");
    }

    @Test
    void aBodyCutShortIsAClientError() throws Exception {
        String header = sign(alice, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, 0, List.of());
        String response = RawHttp.exchangeThenHangUp(
                RELAY.baseUrl(),
                "POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Authorization: " + header
                        + "\r\nContent-Length: 100\r\n\r\n[{\"artifact\"");
        assertThat(response).startsWith("HTTP/1.1 400");
        assertThat(response).doesNotContain("internal error");
    }

    @Test
    void wrongScheme() {
        assertRejected(
                sign(alice, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, 0, List.of())
                        .replace("Nostr ", "Bearer "),
                "NIP-98: malformed authorization header");
    }

    @Test
    void notBase64() {
        assertRejected("Nostr %%%not-base64%%%", "NIP-98: malformed authorization header");
    }

    @Test
    void notAnEvent() {
        String header = "Nostr " + Base64.getEncoder().encodeToString("{\"hello\":1}".getBytes(StandardCharsets.UTF_8));
        assertThat(post(header, QUERY).error()).startsWith("NIP-98: malformed auth event");
    }

    @Test
    void wrongKind() {
        assertRejected(sign(alice, 27236, "POST", url("/query"), QUERY, 0, List.of()), "NIP-98: wrong kind");
    }

    @Test
    void tamperedIdAndSignature() {
        Event good = authEvent(alice, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, 0, List.of());
        Event wrongId = new Event(
                "0".repeat(64), good.pubkey(), good.createdAt(), good.kind(), good.tags(), good.content(), good.sig());
        assertRejected(header(wrongId), "NIP-98: invalid event id");
        NostrKeys mallory = NostrKeys.generate();
        Event other = authEvent(mallory, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, 0, List.of());
        Event stolenSignature = new Event(
                good.id(), good.pubkey(), good.createdAt(), good.kind(), good.tags(), good.content(), other.sig());
        assertRejected(header(stolenSignature), "NIP-98: invalid signature");
    }

    @Test
    void tooOldAndFromTheFuture() {
        // 30 s past the 60 s window either way, so a slow machine between signing and checking changes nothing.
        assertThat(post(sign(alice, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, -90, List.of()), QUERY)
                        .error())
                .isEqualTo("NIP-98: auth event too old");
        assertThat(post(sign(alice, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, 90, List.of()), QUERY)
                        .error())
                .isEqualTo("NIP-98: auth event from the future");
    }

    @Test
    void urlMustBeTheRequestUrl() {
        assertRejected(
                sign(alice, Kinds.HTTP_AUTH, "POST", url("/events"), QUERY, 0, List.of()), "NIP-98: url mismatch");
        assertRejected(
                sign(alice, Kinds.HTTP_AUTH, "POST", "https" + url("/query").substring(4), QUERY, 0, List.of()),
                "NIP-98: url mismatch");
    }

    @Test
    void urlSchemeAndHostCompareCaseInsensitivelyAndATrailingSlashIsIgnored() {
        String shouted = url("/query/").replace("http://", "HTTP://");
        Reply reply = post(sign(alice, Kinds.HTTP_AUTH, "POST", shouted, QUERY, 0, List.of()), QUERY);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    @Test
    void methodMustMatch() {
        assertRejected(
                sign(alice, Kinds.HTTP_AUTH, "GET", url("/query"), QUERY, 0, List.of()), "NIP-98: method mismatch");
        Reply lowercase = post(sign(alice, Kinds.HTTP_AUTH, "post", url("/query"), QUERY, 0, List.of()), QUERY);
        assertThat(lowercase.status()).isEqualTo(200);
    }

    @Test
    void bodyNeedsAMatchingPayloadTag() {
        Event noPayload = alice.sign(
                Kinds.HTTP_AUTH,
                now(),
                List.of(List.of(Tags.URL, url("/query")), List.of(Tags.METHOD, "POST"), List.of(Tags.NONCE, "1")),
                "");
        assertRejected(header(noPayload), "NIP-98: missing payload tag");
        assertThat(post(sign(alice, Kinds.HTTP_AUTH, "POST", url("/query"), "[{}]", 0, List.of()), QUERY)
                        .error())
                .isEqualTo("NIP-98: payload mismatch");
    }

    @Test
    void aSecondUMethodOrPayloadTagIsRefusedEvenWhenTheFirstMatches() {
        String hash = Sha256.hex(QUERY.getBytes(StandardCharsets.UTF_8));
        assertRejected(
                sign(
                        alice,
                        Kinds.HTTP_AUTH,
                        "POST",
                        url("/query"),
                        QUERY,
                        0,
                        List.of(List.of(Tags.URL, url("/events")))),
                "NIP-98: duplicate u tag");
        assertRejected(
                sign(alice, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, 0, List.of(List.of(Tags.METHOD, "GET"))),
                "NIP-98: duplicate method tag");
        assertRejected(
                sign(
                        alice,
                        Kinds.HTTP_AUTH,
                        "POST",
                        url("/query"),
                        QUERY,
                        0,
                        List.of(List.of(Tags.PAYLOAD_HASH, hash))),
                "NIP-98: duplicate payload tag");
    }

    @Test
    void aReplayedHeaderIsRefused() {
        String header = sign(alice, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, 0, List.of());
        assertThat(post(header, QUERY).status()).isEqualTo(200);
        Reply replay = post(header, QUERY);
        assertThat(replay.status()).isEqualTo(401);
        assertThat(replay.error()).isEqualTo("NIP-98: replay detected");
    }

    @Test
    void aHeaderUsedOnOneInstanceIsRefusedByAnotherOnTheSameDatabase() throws Exception {
        TestRelay second = TestRelay.anotherInstance(RELAY);
        second.start();
        try {
            String used = sign(alice, 27235, "POST", url("/query"), QUERY, 0, List.of());
            assertThat(post(used, QUERY).status()).isEqualTo(200);
            // Both headers name the first instance's URL and are sent to the second with that Host, so
            // the fresh one passes every check there and only the guard can tell the used one apart.
            String fresh = sign(alice, 27235, "POST", url("/query"), QUERY, 0, List.of());
            assertThat(sendTo(second, fresh)).startsWith("HTTP/1.1 200");
            assertThat(sendTo(second, used)).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
        } finally {
            second.stop();
        }
    }

    private static String sendTo(TestRelay relay, String header) throws Exception {
        String host = RELAY.baseUrl().substring("http://".length());
        return RawHttp.exchange(
                relay.baseUrl(),
                "POST /query HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + header + "\r\nContent-Length: "
                        + QUERY.length() + "\r\nConnection: close\r\n\r\n" + QUERY);
    }

    @Test
    void aHeaderFromTheFutureIsRememberedForTheWholeWindowAfterItsCreatedAt() {
        Event future = authEvent(alice, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, 60, List.of());
        assertThat(post(header(future), QUERY).status()).isEqualTo(200);
        // It passes the created_at check until created_at + 60 s; a row kept from first use only would be
        // gone by then, and the header could be replayed in the last moments of its validity.
        double expiresAt = RELAY.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT extract(epoch FROM expires_at) FROM nip98_replay_guard WHERE event_id = :id")
                        .bind("id", future.id())
                        .mapTo(Double.class)
                        .one());
        assertThat(expiresAt)
                .isGreaterThanOrEqualTo(
                        future.createdAt() + RELAY.configuration().getRelay().getReplayWindowSeconds());
        Reply replay = post(header(future), QUERY);
        assertThat(replay.error()).isEqualTo("NIP-98: replay detected");
    }

    @Test
    void aReplayWindowShorterThanTwiceTheClockSkewStopsTheStart() {
        TestRelay shortWindow = TestRelay.create(ConfigOverride.config("relay.replayWindowSeconds", "119"));
        try {
            assertThatThrownBy(shortWindow::start).hasStackTraceContaining("relay.replayWindowSeconds");
        } finally {
            shortWindow.stop();
            TestDatabases.drop(shortWindow.databaseUrl());
        }
    }

    @Test
    void checksRunInTheContractOrder() {
        // Too old AND wrong url AND wrong method: the time check comes first.
        assertRejected(
                sign(alice, Kinds.HTTP_AUTH, "GET", url("/elsewhere"), QUERY, -120, List.of()),
                "NIP-98: auth event too old");
        // Wrong url AND wrong method: url first.
        assertRejected(
                sign(alice, Kinds.HTTP_AUTH, "GET", url("/elsewhere"), QUERY, 0, List.of()), "NIP-98: url mismatch");
    }

    @Test
    void aRejectedAuthEventDoesNotBurnItsIdInTheReplayGuard() {
        String header = sign(alice, Kinds.HTTP_AUTH, "POST", url("/query"), QUERY, 0, List.of());
        assertThat(post(header, "[{\"artifact\":\"other\"}]").error()).isEqualTo("NIP-98: payload mismatch");
        assertThat(post(header, QUERY).status()).isEqualTo(200);
    }

    /**
     * The length is judged from the headers, before the signature is checked: a client that waits for
     * {@code 100 Continue} sends only the headers and is refused at once.
     */
    @Test
    void oversizedBodiesAre413() throws java.io.IOException {
        java.net.URI base = java.net.URI.create(RELAY.baseUrl());
        int over = RELAY.configuration().getRelay().getMaxBodyBytes() + 1;
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", base.getPort()), 10_000);
            socket.setSoTimeout(20_000);
            socket.getOutputStream()
                    .write(("POST /query HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                                    + "\r\nAuthorization: Nostr e30\r\nContent-Type: application/json\r\nContent-Length: "
                                    + over + "\r\nExpect: 100-continue\r\n\r\n")
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String reply = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(reply).startsWith("HTTP/1.1 413 ");
            assertThat(reply).contains("larger than");
        }
    }

    private void assertRejected(String header, String reason) {
        Reply reply = post(header, QUERY);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(401);
        assertThat(reply.error()).isEqualTo(reason);
    }

    private Reply post(String header, String body) {
        return client.send(client.request("/query")
                .header("Authorization", header)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static String url(String path) {
        return RELAY.baseUrl() + path;
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    private static String sign(
            NostrKeys keys, int kind, String method, String url, String body, long skew, List<List<String>> extra) {
        return header(authEvent(keys, kind, method, url, body, skew, extra));
    }

    private static Event authEvent(
            NostrKeys keys, int kind, String method, String url, String body, long skew, List<List<String>> extra) {
        List<List<String>> tags = new ArrayList<>(List.of(
                List.of(Tags.URL, url),
                List.of(Tags.METHOD, method),
                List.of(Tags.PAYLOAD_HASH, Sha256.hex(body.getBytes(StandardCharsets.UTF_8))),
                List.of(Tags.NONCE, Long.toHexString(System.nanoTime()))));
        tags.addAll(extra);
        return keys.sign(kind, now() + skew, tags, "");
    }

    private static String header(Event event) {
        return "Nostr " + Base64.getEncoder().encodeToString(event.toJson().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theClientLibraryHeaderIsAccepted() {
        byte[] body = QUERY.getBytes(StandardCharsets.UTF_8);
        assertThat(post(Nip98.authorizationHeader(alice, "POST", url("/query"), body, now()), QUERY)
                        .status())
                .isEqualTo(200);
    }
}
