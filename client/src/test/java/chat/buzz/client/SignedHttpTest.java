package chat.buzz.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import chat.buzz.protocol.NostrKeys;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a failure to connect is classified (a relay never reached is not waited for, one that went away
 * is), and what a client reads from an error body.
 */
class SignedHttpTest {
    private static final String TTL = "6f1c2d3e-4a5b-4c6d-8e7f-901a2b3c4d5e";
    private static final String OTHER = "0b9c8d7e-6f5a-4b3c-9d2e-1f0a9b8c7d6e";

    @Test
    void aTtlRefusalNamesItsChannelInAFieldAndAnOlderRelayInItsMessageOnly() throws Exception {
        // The message of the first names another id on purpose: the field is what the client goes by.
        RelayError withField = queryAnswered("{\"error\":\"incremental_ttl_channel\",\"message\":\"channel " + OTHER
                + " has a TTL\",\"channel\":\"" + TTL + "\"}");
        RelayError olderRelay =
                queryAnswered("{\"error\":\"incremental_ttl_channel\",\"message\":\"channel " + TTL + " has a TTL\"}");
        RelayError neither =
                queryAnswered("{\"error\":\"incremental_ttl_channel\",\"message\":\"a channel has a TTL\"}");

        assertThat(withField.code()).isEqualTo("incremental_ttl_channel");
        assertThat(withField.status()).isEqualTo(422);
        assertThat(withField.channel()).contains(TTL);
        assertThat(olderRelay.channel()).contains(TTL);
        assertThat(neither.channel()).isEmpty();
    }

    private static RelayError queryAnswered(String errorBody) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = errorBody.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(422, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            SignedHttp http =
                    new SignedHttp("http://127.0.0.1:" + server.getAddress().getPort(), NostrKeys.generate());
            JsonNode filter = new ObjectMapper().readTree("{\"artifact\":\"incremental\"}");
            Throwable thrown = catchThrowable(() -> http.query(filter));
            assertThat(thrown).isInstanceOf(RelayError.class);
            return (RelayError) thrown;
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aRelayThatNeverAnsweredIsNotRetriedButOneThatWentAwayIs() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = "{\"name\":\"stand-in\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        List<String> waits = new ArrayList<>();
        Backoff twice = Backoff.standard()
                .withAttempts(2)
                .withSleeper(delay -> {})
                .withListener((request, delay, reason) -> waits.add(reason.code()));

        SignedHttp reached = new SignedHttp(url, NostrKeys.generate());
        assertThat(reached.information().path("name").asText()).isEqualTo("stand-in");
        SignedHttp neverReached = new SignedHttp(url, NostrKeys.generate());
        server.stop(0);

        assertThatThrownBy(() -> twice.run("GET /", neverReached::information))
                .isInstanceOfSatisfying(
                        RelayError.class, error -> assertThat(error.code()).isEqualTo(RelayError.NEVER_REACHED))
                .hasMessageContaining("connection refused");
        assertThat(waits).isEmpty();
        assertThatThrownBy(() -> twice.run("GET /", reached::information))
                .isInstanceOf(RetriesExhausted.class)
                .hasMessageStartingWith("gave up GET / after 2 attempts");
        assertThat(waits).containsExactly("unreachable");
    }

    @Test
    void relayUrlsNeedAWebSchemeAndAHost() {
        assertThat(SignedHttp.checkedUrl("https://relay.example.com/")).isEqualTo("https://relay.example.com");
        assertThatThrownBy(() -> SignedHttp.checkedUrl("relay.example.com"))
                .hasMessage("relay URL must look like https://relay.example.com, not 'relay.example.com'"
                        + " (add the scheme: http://relay.example.com)");
        assertThatThrownBy(() -> SignedHttp.checkedUrl("ftp://relay.example.com"))
                .hasMessage("relay URL must look like https://relay.example.com, not 'ftp://relay.example.com'");
    }
}
