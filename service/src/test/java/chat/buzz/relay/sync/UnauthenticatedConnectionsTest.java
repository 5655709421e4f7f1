package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Connections that never authenticate are capped per address and in total (the oldest makes room for a
 * newcomer), and closed after the AUTH deadline.
 */
@IntegrationTest
class UnauthenticatedConnectionsTest {
    @RegisterExtension
    @Order(1)
    static final TestRelay CAPPED = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("sync.maxUnauthenticatedPerAddress", "2"),
            ConfigOverride.config("sync.maxUnauthenticatedConnections", "3"),
            ConfigOverride.config("sync.authTimeoutSeconds", "600"));

    @RegisterExtension
    @Order(2)
    static final TestRelay DEADLINE = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("sync.authTimeoutSeconds", "2"));

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<AutoCloseable> connections = new ArrayList<>();

    @AfterEach
    void disconnect() throws Exception {
        for (AutoCloseable connection : connections) {
            connection.close();
        }
    }

    @Test
    void connectionsWaitingForAuthAreCappedPerAddressAndInTotal() throws Exception {
        SyncSocket first = connect();
        SyncSocket second = connect();
        first.challenge();
        second.challenge();

        SyncSocket refused = connect();
        assertRefused(refused, "rate-limited: more than 2 connections from your address");
        assertThat(refused.received())
                .as("a refused connection gets no challenge")
                .hasSize(1);

        // An authenticated connection no longer counts: its address may open another.
        first.authenticateOk(NostrKeys.generate());
        connect().challenge();

        // Two from 127.0.0.1 and one from 127.0.0.2 reach the total of 3; 127.0.0.3 then takes the place
        // of the one that has waited longest, so a crowd of silent sockets cannot lock newcomers out.
        RawConnection elsewhere = raw("127.0.0.2");
        assertThat(verb(elsewhere.readMessage())).isEqualTo("AUTH");
        assertThat(CAPPED.gauge("buzz.sync.unauthenticated")).isEqualTo(3);
        RawConnection overTotal = raw("127.0.0.3");
        assertThat(verb(overTotal.readMessage())).isEqualTo("AUTH");
        assertRefused(second, "rate-limited: the relay is full and this connection had not authenticated");
        assertThat(CAPPED.gauge("buzz.sync.unauthenticated")).isEqualTo(3);
        assertThat(CAPPED.counter("buzz.sync.shed-unauthenticated")).isEqualTo(1);
        assertThat(CAPPED.counter("buzz.sync.refused-connections")).isEqualTo(1);

        for (AutoCloseable connection : connections) {
            connection.close();
        }
        connections.clear();
        await().atMost(Duration.ofSeconds(30)).until(() -> CAPPED.gauge("buzz.sync.unauthenticated") == 0);
    }

    @Test
    void aConnectionThatDoesNotAuthenticateInTimeIsToldAndClosed() {
        SyncSocket authenticated = SyncSocket.connect(DEADLINE.baseUrl());
        connections.add(authenticated);
        authenticated.authenticateOk(NostrKeys.generate());
        SyncSocket silent = SyncSocket.connect(DEADLINE.baseUrl());
        connections.add(silent);
        silent.challenge();

        assertThat(silent.closedConnection())
                .succeedsWithin(Duration.ofSeconds(30))
                .asString()
                .startsWith("1008");
        List<JsonNode> received = silent.received();
        JsonNode last = received.get(received.size() - 1);
        assertThat(verb(last)).isEqualTo("NOTICE");
        assertThat(last.get(1).asText()).isEqualTo("auth-required: no successful AUTH within 2 s");
        assertThat(DEADLINE.counter("buzz.sync.disconnected-auth-timeout")).isEqualTo(1);

        // Its deadline passed too (it connected first), but it had authenticated.
        assertThat(authenticated.closedConnection()).isNotDone();
        authenticated.subscribe("s", "{\"artifact\":\"sync\"}");
        authenticated.awaitEose("s");
    }

    private SyncSocket connect() {
        SyncSocket client = SyncSocket.connect(CAPPED.baseUrl());
        connections.add(client);
        return client;
    }

    private static void assertRefused(SyncSocket client, String noticeStart) {
        assertThat(client.awaitNoticeAndPolicyClose()).startsWith(noticeStart);
    }

    private RawConnection raw(String localAddress) throws IOException {
        RawConnection connection =
                new RawConnection(localAddress, URI.create(CAPPED.baseUrl()).getPort());
        connections.add(connection);
        return connection;
    }

    /**
     * A WebSocket from a chosen loopback source address (the JDK client cannot pick one): the
     * handshake by hand, then unmasked text frames from the relay.
     */
    private static final class RawConnection implements AutoCloseable {
        private final Socket socket = new Socket();
        private final DataInputStream in;

        RawConnection(String localAddress, int port) throws IOException {
            socket.bind(new InetSocketAddress(localAddress, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            in = new DataInputStream(socket.getInputStream());
            String status = readHeaders();
            assertThat(status).startsWith("HTTP/1.1 101");
        }

        private String readHeaders() throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                head.write(in.readUnsignedByte());
            }
            return head.toString(StandardCharsets.ISO_8859_1);
        }

        /** The next text message, or null once the relay closes the connection. */
        JsonNode readMessage() throws IOException {
            while (true) {
                int first = in.read();
                if (first < 0) {
                    return null;
                }
                int length = in.readUnsignedByte() & 0x7f;
                if (length == 126) {
                    length = in.readUnsignedShort();
                }
                byte[] payload = new byte[length];
                in.readFully(payload);
                int opcode = first & 0x0f;
                if (opcode == 0x8) {
                    return null;
                }
                if (opcode == 0x1) {
                    return JSON.readTree(new String(payload, StandardCharsets.UTF_8));
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
