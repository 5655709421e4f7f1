package chat.buzz.relay.web;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestRelay;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Errors Jetty answers itself, before any of the relay's code runs (a header too
 * large, a request line it cannot parse), are JSON like every other error, on both ports.
 */
@IntegrationTest
class JsonErrorsTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private static final String HUGE = "x".repeat(64 * 1024);

    @Test
    void anOversizedHeaderOnTheApplicationPortIsA431WithAJsonError() throws IOException {
        String reply = RawHttp.exchange(
                RELAY.baseUrl(),
                "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Huge: " + HUGE + "\r\nConnection: close\r\n\r\n");
        assertJsonError(reply, 431);
        // The relay still answers on a new connection.
        assertThat(RawHttp.exchange(
                        RELAY.baseUrl(),
                        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + "Accept: application/nostr+json\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 200");
    }

    @Test
    void anOversizedHeaderOnTheAdminPortIsA431WithAJsonError() throws IOException {
        String reply = RawHttp.exchange(
                RELAY.adminUrl(),
                "GET /api/flags HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Authorization: Bearer " + AdminClient.OLIVIA
                        + "\r\nX-Huge: " + HUGE + "\r\nConnection: close\r\n\r\n");
        assertJsonError(reply, 431);
    }

    @Test
    void anUnparsableRequestLineIsA400WithAJsonError() throws IOException {
        assertJsonError(
                RawHttp.exchange(
                        RELAY.baseUrl(), "GET /\u0001 HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "Connection: close\r\n\r\n"),
                400);
    }

    @Test
    void anUnknownAdminRouteIsA404WithAJsonError() throws IOException {
        assertJsonError(
                RawHttp.exchange(
                        RELAY.adminUrl(),
                        "GET /no-such-route HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                + "Accept: text/html\r\nAuthorization: Bearer " + AdminClient.OLIVIA
                                + "\r\nConnection: close\r\n\r\n"),
                404);
    }

    private static void assertJsonError(String reply, int status) throws IOException {
        assertThat(RawHttp.jsonError(reply, status).path("error").asText())
                .as(reply)
                .isNotBlank();
    }
}
