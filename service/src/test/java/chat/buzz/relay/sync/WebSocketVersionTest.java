package chat.buzz.relay.sync;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A handshake the relay cannot complete is a client error that says what would work, never a 500. */
@IntegrationTest
class WebSocketVersionTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

    @Test
    void anUnsupportedVersionIsAnswered426NamingVersion13() throws Exception {
        for (String version : List.of("0", "8", "12", "14", "99", "abc")) {
            String reply = upgrade("Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: " + version + "\r\n");
            assertThat(reply).as(version).startsWith("HTTP/1.1 426 ");
            assertThat(headers(reply)).as(version).contains("sec-websocket-version: 13");
            JsonNode body = RawHttp.jsonError(reply, 426);
            assertThat(body.get("error").asText())
                    .as(version)
                    .isEqualTo("invalid: this relay speaks WebSocket version 13 only");
        }
    }

    @Test
    void aHandshakeWithoutVersionOrKeyIsABadRequest() throws Exception {
        String noVersion = upgrade("Sec-WebSocket-Key: " + KEY + "\r\n");
        assertThat(noVersion).startsWith("HTTP/1.1 426 ");
        assertThat(headers(noVersion)).contains("sec-websocket-version: 13");

        for (String key : List.of(
                "",
                "Sec-WebSocket-Key: \r\n",
                "Sec-WebSocket-Key: abc\r\n",
                "Sec-WebSocket-Key: ????????????????????????\r\n")) {
            String reply = upgrade(key + "Sec-WebSocket-Version: 13\r\n");
            assertThat(RawHttp.jsonError(reply, 400).get("error").asText())
                    .as(key)
                    .isEqualTo("invalid: a WebSocket upgrade needs a Sec-WebSocket-Key of 16 bytes in base64");
        }
    }

    @Test
    void anUpgradeWithoutConnectionUpgradeIsNoServerError() throws Exception {
        String reply = upgradeWith(
                "Connection: keep-alive\r\nSec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n");
        assertThat(reply).doesNotStartWith("HTTP/1.1 5");
    }

    @Test
    void version13StillUpgrades() throws Exception {
        String reply = upgrade("Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n");
        assertThat(reply).startsWith("HTTP/1.1 101 ");
    }

    private static String headers(String reply) {
        return reply.substring(0, reply.indexOf("\r\n\r\n")).toLowerCase(Locale.ROOT);
    }

    /** Reads the status line and headers, then a body up to its Content-Length (none after a 101). */
    private static String upgrade(String handshakeHeaders) throws IOException {
        return upgradeWith("Connection: Upgrade\r\n" + handshakeHeaders);
    }

    private static String upgradeWith(String handshakeHeaders) throws IOException {
        URI uri = URI.create(RELAY.baseUrl());
        try (Socket socket = new Socket("127.0.0.1", uri.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET / HTTP/1.1\r\nHost: localhost" + "\r\nUpgrade: websocket\r\n" + handshakeHeaders + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder text = new StringBuilder();
            while (!text.toString().contains("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return text.toString();
                }
                text.append((char) b);
            }
            String head = text.toString().toLowerCase(Locale.ROOT);
            int lengthAt = head.indexOf("content-length: ");
            if (head.startsWith("http/1.1 101") || lengthAt < 0) {
                return text.toString();
            }
            int length = Integer.parseInt(head.substring(lengthAt + 16, head.indexOf("\r\n", lengthAt))
                    .trim());
            byte[] body = in.readNBytes(length);
            return text + new String(body, StandardCharsets.UTF_8);
        }
    }
}
