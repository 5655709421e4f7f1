package chat.buzz.relay.deployment;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.revision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.NginxProxy;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/deployment.md's nginx site file (deploy/nginx/buzz-relay.conf) in front of two relays on one
 * database, each trusting the proxy's address: signed HTTP and NIP-42 WebSocket through it, with the
 * usual {@code Host $host} that dropped the port before trusted proxies existed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@IntegrationTest
class BehindNginxTest {
    private static final int FIRST_PORT = NginxProxy.freePort();
    private static final int SECOND_PORT = NginxProxy.freePort();

    @RegisterExtension
    @Order(1)
    static final TestRelay FIRST = instance(null, FIRST_PORT);

    @RegisterExtension
    @Order(2)
    static final TestRelay SECOND = instance(FIRST, SECOND_PORT);

    private static NginxProxy nginx;
    private final NostrKeys alice = NostrKeys.generate();

    private static TestRelay instance(TestRelay first, int port) {
        ConfigOverride[] overrides = {
            ConfigOverride.config("server.applicationConnectors[0].port", String.valueOf(port)),
            ConfigOverride.config("relay.trustedProxies", "127.0.0.1"),
            ConfigOverride.config("gates.sync", "true")
        };
        return first == null ? TestRelay.create(overrides) : TestRelay.anotherInstance(first, overrides);
    }

    @BeforeAll
    static void startNginx() throws Exception {
        nginx = NginxProxy.start(List.of("127.0.0.1:" + FIRST_PORT, "127.0.0.1:" + SECOND_PORT));
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    @Order(1)
    void signedRequestsThroughNginxAreAcceptedByBothInstances() throws Exception {
        RelayClient client = new RelayClient(nginx.baseUrl());
        for (int i = 0; i < 4; i++) {
            RelayClient.Reply reply = client.publish(alice, createChannel(alice, newId(), "open"));
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        }

        assertThat(nginx.accessLog())
                .filteredOn(line -> line.startsWith("/events 200"))
                .anyMatch(line -> line.endsWith("127.0.0.1:" + FIRST_PORT))
                .anyMatch(line -> line.endsWith("127.0.0.1:" + SECOND_PORT));
    }

    @Test
    @Order(2)
    void aWebSocketThroughNginxAuthenticatesAndSeesWritesMadeThroughEitherInstance() {
        RelayClient client = new RelayClient(nginx.baseUrl());
        UUID channel = newId();
        assertThat(client.publish(alice, createChannel(alice, channel, "open")).status())
                .isEqualTo(200);
        try (SyncSocket sync = SyncSocket.connect(nginx.baseUrl())) {
            assertThat(sync.url()).isEqualTo("ws://localhost:" + nginx.port() + "/");
            sync.authenticateOk(alice);
            sync.subscribe("live", "{\"artifact\":\"sync\",\"#h\":[\"" + channel + "\"]}");
            sync.awaitEose("live");

            // Round robin sends consecutive writes to both instances; the socket is held by one of them.
            UUID first = newId();
            UUID second = newId();
            publish(client, revision(alice, first, channel, "create", null, "first"));
            publish(client, revision(alice, second, channel, "create", null, "second"));

            await().atMost(Duration.ofSeconds(15))
                    .until(
                            () -> sync.store("live").keySet(),
                            heads -> heads.contains(first.toString()) && heads.contains(second.toString()));
        }
    }

    @Test
    @Order(3)
    void readinessAnswersThroughNginxWithoutAToken() {
        RelayClient.Reply reply = new RelayClient(nginx.baseUrl())
                .send(new RelayClient(nginx.baseUrl()).request("/health/ready").GET());

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body()).isEqualTo("{\"status\":\"ready\"}");
    }

    @Test
    @Order(4)
    void withOneInstanceStoppedEverySignedWriteStillSucceeds() throws Exception {
        SECOND.stop();
        try {
            RelayClient client = new RelayClient(nginx.baseUrl());
            for (int i = 0; i < 6; i++) {
                RelayClient.Reply reply = client.publish(alice, createChannel(alice, newId(), "open"));
                assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            }
        } finally {
            SECOND.start();
        }
    }

    private void publish(RelayClient client, Event event) {
        RelayClient.Reply reply = client.publish(alice, event);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }
}
