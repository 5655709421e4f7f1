package chat.buzz.relay.web;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A body over the limit is refused with 413 before it is read, so the connection cannot carry another
 * request: the answer says {@code Connection: close}, and a keep-alive client's next request (on a
 * new connection) is answered rather than failing on the closed one.
 */
@IntegrationTest
class OversizedBodyTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private static final int OVER_THE_LIMIT = 600 * 1024;

    @Test
    void aKeepAliveClientsNextRequestIsAnsweredAfterA413() throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<String> small = client.send(events("{}".getBytes(StandardCharsets.UTF_8)), ofString());
        assertThat(small.statusCode()).isEqualTo(401);

        HttpResponse<String> oversized = client.send(events(new byte[OVER_THE_LIMIT]), ofString());
        assertThat(oversized.statusCode()).isEqualTo(413);
        assertThat(oversized.headers().firstValue("connection")).contains("close");
        assertThat(RelayClient.JSON.readTree(oversized.body()).get("error").asText())
                .startsWith("request body larger than");

        for (int i = 0; i < 3; i++) {
            HttpResponse<String> next = client.send(events("{}".getBytes(StandardCharsets.UTF_8)), ofString());
            assertThat(next.statusCode()).as("request %d after the 413", i).isEqualTo(401);
        }
    }

    /** On the wire: the 413 names the close, and the relay then closes the connection. */
    @Test
    void theRefusalSaysTheConnectionClosesAndItDoes() throws IOException {
        URI base = URI.create(RELAY.baseUrl());
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", base.getPort()), 10_000);
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /events HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                            + "\r\nAuthorization: Nostr e30\r\nContent-Type: application/json\r\nContent-Length: "
                            + OVER_THE_LIMIT
                            + "\r\nConnection: keep-alive\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(reply).startsWith("HTTP/1.1 413 ");
            assertThat(reply.toLowerCase(java.util.Locale.ROOT)).contains("\r\nconnection: close\r\n");
            assertThat(reply).contains("request body larger than");
        }
    }

    private static HttpRequest events(byte[] body) {
        return HttpRequest.newBuilder(URI.create(RELAY.baseUrl() + "/events"))
                .header("Content-Type", "application/json")
                // Any Authorization: the length is judged before the signature is.
                .header("Authorization", "Nostr e30")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    private static HttpResponse.BodyHandler<String> ofString() {
        return HttpResponse.BodyHandlers.ofString();
    }
}
