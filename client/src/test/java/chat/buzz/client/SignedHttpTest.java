package chat.buzz.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.protocol.NostrKeys;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a failure to connect is classified: a relay never reached is not waited for, one that went away is. */
class SignedHttpTest {
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
