package chat.buzz.relay.web;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A body over the limit is refused with 413 before any signature work, and the connection carries no
 * other request: the answer says {@code Connection: close}, and a keep-alive client's next request (on
 * a new connection) is answered rather than failing on the closed one. A client that sends the body
 * reads the 413, because the relay reads the body first (closing on it unread would reset the
 * connection); one that asked for {@code 100 Continue} is refused without sending it.
 */
@IntegrationTest
class OversizedBodyTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private static final int OVER_THE_LIMIT = 600 * 1024;

    @Test
    void aKeepAliveClientsNextRequestIsAnsweredAfterA413() throws Exception {
        HttpClient client = http();
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

    /**
     * A client still sending the body, more slowly than the relay decides, reads the 413 rather than a
     * reset connection.
     */
    @Test
    void aClientStillSendingTheBodyReadsThe413() throws Exception {
        HttpRequest.BodyPublisher slow = HttpRequest.BodyPublishers.fromPublisher(
                HttpRequest.BodyPublishers.ofInputStream(SlowBody::new), OVER_THE_LIMIT);
        HttpResponse<String> reply = http().send(request(slow), ofString());
        assertThat(reply.statusCode()).isEqualTo(413);
        assertThat(RelayClient.JSON.readTree(reply.body()).get("error").asText())
                .startsWith("request body larger than");
    }

    /**
     * On the wire, a client waiting for {@code 100 Continue} sends no body: the 413 comes at once (no
     * interim answer), names the close, and the relay then closes the connection.
     */
    @Test
    void aClientWaitingForContinueIsRefusedWithoutSendingTheBody() throws IOException {
        URI base = URI.create(RELAY.baseUrl());
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", base.getPort()), 10_000);
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /events HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort()
                            + "\r\nAuthorization: Nostr e30\r\nContent-Type: application/json\r\nContent-Length: "
                            + OVER_THE_LIMIT
                            + "\r\nConnection: keep-alive\r\nExpect: 100-continue\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String reply = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(reply).startsWith("HTTP/1.1 413 ");
            assertThat(reply.toLowerCase(Locale.ROOT)).contains("\r\nconnection: close\r\n");
            assertThat(reply).contains("request body larger than");
        }
    }

    /** {@link #OVER_THE_LIMIT} zero bytes, 16 KiB at a time after a pause each: a client on a slow link. */
    private static final class SlowBody extends InputStream {
        private int left = OVER_THE_LIMIT;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0];
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (left == 0) {
                return -1;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException();
            }
            int n = Math.min(Math.min(length, 16 * 1024), left);
            Arrays.fill(buffer, offset, offset + n, (byte) 0);
            left -= n;
            return n;
        }
    }

    private static HttpClient http() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    private static HttpRequest events(byte[] body) {
        return request(HttpRequest.BodyPublishers.ofByteArray(body));
    }

    private static HttpRequest request(HttpRequest.BodyPublisher body) {
        return HttpRequest.newBuilder(URI.create(RELAY.baseUrl() + "/events"))
                .header("Content-Type", "application/json")
                // Any Authorization: the length is judged before the signature is.
                .header("Authorization", "Nostr e30")
                .POST(body)
                .build();
    }

    private static HttpResponse.BodyHandler<String> ofString() {
        return HttpResponse.BodyHandlers.ofString();
    }
}
