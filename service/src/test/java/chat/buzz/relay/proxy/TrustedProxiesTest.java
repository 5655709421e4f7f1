package chat.buzz.relay.proxy;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Forwarded headers from a configured proxy decide the URL clients sign, the community and the
 * logged address; the same headers from anyone else change nothing. Both instances share a database
 * and are reached from 127.0.0.1: one trusts that address, the other trusts only 10.9.9.9.
 */
@IntegrationTest
class TrustedProxiesTest {
    private static final Path TRUSTING_LOG = temporaryFile("trusting");
    private static final Path DISTRUSTING_LOG = temporaryFile("distrusting");
    private static final Map<String, String> THROUGH_PROXY =
            Map.of("X-Forwarded-Proto", "https", "X-Forwarded-Host", "localhost:8443");

    @RegisterExtension
    static final TestRelay TRUSTING = TestRelay.withConfig(
            "test-relay-request-log.yml",
            ConfigOverride.config("relay.trustedProxies", "127.0.0.1"),
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("server.requestLog.appenders[0].currentLogFilename", TRUSTING_LOG.toString()));

    @RegisterExtension
    static final TestRelay DISTRUSTING = TestRelay.anotherInstance(
            TRUSTING,
            ConfigOverride.config("relay.trustedProxies", "10.9.9.9"),
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("server.requestLog.appenders[0].currentLogFilename", DISTRUSTING_LOG.toString()));

    private final NostrKeys alice = NostrKeys.generate();

    @Test
    void aTrustedProxysForwardedSchemeAndHostAreTheUrlClientsSign() {
        RelayClient.Reply reply = publish(TRUSTING, "https://localhost:8443", THROUGH_PROXY);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    @Test
    void theSameHeadersFromAnUntrustedAddressAreIgnored() {
        RelayClient.Reply forged = publish(DISTRUSTING, "https://localhost:8443", THROUGH_PROXY);
        assertThat(forged.status()).isEqualTo(401);
        assertThat(forged.error()).isEqualTo("NIP-98: url mismatch");

        RelayClient.Reply direct = publish(DISTRUSTING, DISTRUSTING.baseUrl(), THROUGH_PROXY);
        assertThat(direct.status()).as(direct.toString()).isEqualTo(200);
    }

    @Test
    void aForwardedPortIsAddedUnlessItIsTheSchemesDefault() {
        assertThat(publish(
                                TRUSTING,
                                "https://localhost:8443",
                                Map.of(
                                        "X-Forwarded-Proto",
                                        "https",
                                        "X-Forwarded-Host",
                                        "localhost",
                                        "X-Forwarded-Port",
                                        "8443"))
                        .status())
                .isEqualTo(200);
        assertThat(publish(
                                TRUSTING,
                                "https://localhost",
                                Map.of(
                                        "X-Forwarded-Proto",
                                        "https",
                                        "X-Forwarded-Host",
                                        "localhost",
                                        "X-Forwarded-Port",
                                        "443"))
                        .status())
                .isEqualTo(200);
    }

    @Test
    void aTrustedForwardedHostSelectsTheCommunity() {
        Map<String, String> elsewhere = Map.of("X-Forwarded-Proto", "https", "X-Forwarded-Host", "elsewhere.example");

        RelayClient.Reply trusted = publish(TRUSTING, "https://elsewhere.example", elsewhere);
        assertThat(trusted.status()).isEqualTo(404);
        assertThat(trusted.error()).isEqualTo("unknown community");

        assertThat(publish(DISTRUSTING, DISTRUSTING.baseUrl(), elsewhere).status())
                .isEqualTo(200);
    }

    @Test
    void webSocketAuthSignsTheRelayUrlTheTrustedProxyForwarded() {
        try (SyncSocket viaProxy = SyncSocket.connectVia(TRUSTING.baseUrl(), "wss://localhost:8443/", THROUGH_PROXY)) {
            JsonNode ok = viaProxy.authenticate(alice);
            assertThat(ok.get(2).asBoolean()).as(ok.toString()).isTrue();
        }
        try (SyncSocket forged = SyncSocket.connectVia(DISTRUSTING.baseUrl(), "wss://localhost:8443/", THROUGH_PROXY)) {
            JsonNode refused = forged.authenticate(alice);
            assertThat(refused.get(2).asBoolean()).isFalse();
            assertThat(refused.get(3).asText()).contains("relay url mismatch");
        }
    }

    @Test
    void theRequestLogShowsTheClientBehindATrustedProxyAndThePeerOtherwise() {
        // The client wrote 198.51.100.7 itself; the proxy appended the address it saw, 203.0.113.9.
        get(TRUSTING, "/health/live?probe=trusted", Map.of("X-Forwarded-For", "198.51.100.7, 203.0.113.9"));
        get(DISTRUSTING, "/health/live?probe=forged", Map.of("X-Forwarded-For", "203.0.113.10"));

        assertThat(awaitLogLine(TRUSTING_LOG, "probe=trusted")).startsWith("203.0.113.9 ");
        assertThat(awaitLogLine(DISTRUSTING_LOG, "probe=forged")).startsWith("127.0.0.1 ");
    }

    @Test
    void theStandardForwardedHeaderIsReadLikeTheXForwardedOnes() {
        Map<String, String> rfc7239 =
                Map.of("Forwarded", "for=\"[2001:db8::7]:4711\";proto=https;host=\"localhost:8443\"");
        assertThat(publish(TRUSTING, "https://localhost:8443", rfc7239).status())
                .isEqualTo(200);
        assertThat(publish(DISTRUSTING, "https://localhost:8443", rfc7239).status())
                .isEqualTo(401);

        get(
                TRUSTING,
                "/health/live?probe=rfc7239",
                Map.of("Forwarded", "for=198.51.100.7, for=203.0.113.21:5050", "X-Forwarded-For", "192.0.2.99"));
        assertThat(awaitLogLine(TRUSTING_LOG, "probe=rfc7239"))
                .as("Forwarded wins over X-Forwarded-For")
                .startsWith("203.0.113.21 ");
    }

    /**
     * A proxy that appends (the RFC 7239 norm) leaves what the client sent on the left: those values must
     * neither pick another community nor change the URL the client signs.
     */
    @Test
    void valuesTheClientSentLeftOfTheProxysAreIgnored() {
        Map<String, String> appended = Map.of(
                "X-Forwarded-Proto", "http, https",
                "X-Forwarded-Host", "elsewhere.example, localhost:8443",
                "X-Forwarded-For", "198.51.100.7, 203.0.113.9");
        RelayClient.Reply reply = publish(TRUSTING, "https://localhost:8443", appended);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        RelayClient.Reply asTheClientWrote = publish(TRUSTING, "http://elsewhere.example", appended);
        assertThat(asTheClientWrote.status()).as(asTheClientWrote.toString()).isEqualTo(401);
        assertThat(asTheClientWrote.error()).isEqualTo("NIP-98: url mismatch");

        Map<String, String> rfc7239 = Map.of(
                "Forwarded",
                "for=198.51.100.7;proto=http;host=elsewhere.example, for=203.0.113.9;proto=https;host=\"localhost:8443\"");
        RelayClient.Reply standard = publish(TRUSTING, "https://localhost:8443", rfc7239);
        assertThat(standard.status()).as(standard.toString()).isEqualTo(200);
    }

    private RelayClient.Reply publish(TestRelay relay, String signedOrigin, Map<String, String> headers) {
        Event event = createChannel(alice, newId(), "open");
        byte[] body = event.toJson().getBytes(StandardCharsets.UTF_8);
        String auth = Nip98.authorizationHeader(
                alice, "POST", signedOrigin + "/events", body, System.currentTimeMillis() / 1000);
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(relay.baseUrl() + "/events"))
                .header("Authorization", auth)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        return relay.client().send(request);
    }

    private static void get(TestRelay relay, String path, Map<String, String> headers) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(relay.baseUrl() + path)).GET();
        headers.forEach(request::header);
        assertThat(relay.client().send(request).status()).isEqualTo(200);
    }

    private static String awaitLogLine(Path log, String marker) {
        return await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> Files.exists(log)
                                ? Files.readAllLines(log).stream()
                                        .filter(line -> line.contains(marker))
                                        .findFirst()
                                        .orElse(null)
                                : null,
                        line -> line != null);
    }

    private static Path temporaryFile(String name) {
        try {
            Path file = Files.createTempFile("buzz-request-log-" + name, ".log");
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
