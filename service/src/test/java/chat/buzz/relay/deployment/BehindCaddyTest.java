package chat.buzz.relay.deployment;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.revision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.CaddyProxy;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * deploy/caddy/Caddyfile (Debian's caddy, plain HTTP on a free port) in front of two relays trusting
 * its address: signed HTTP and a NIP-42 WebSocket through it, as BehindNginxTest does for nginx.
 */
@IntegrationTest
class BehindCaddyTest {
    @RegisterExtension
    @Order(1)
    static final TestRelay FIRST = TestRelay.create(
            ConfigOverride.config("relay.trustedProxies", "127.0.0.1"), ConfigOverride.config("gates.sync", "true"));

    @RegisterExtension
    @Order(2)
    static final TestRelay SECOND = TestRelay.anotherInstance(
            FIRST,
            ConfigOverride.config("relay.trustedProxies", "127.0.0.1"),
            ConfigOverride.config("gates.sync", "true"));

    private static CaddyProxy caddy;
    private final NostrKeys alice = NostrKeys.generate();

    @BeforeAll
    static void startCaddy() throws Exception {
        caddy = CaddyProxy.start(List.of(hostAndPort(FIRST), hostAndPort(SECOND)));
    }

    @AfterAll
    static void stopCaddy() throws Exception {
        if (caddy != null) {
            caddy.close();
        }
    }

    @Test
    void signedWritesAndAnAuthenticatedWebSocketWorkThroughCaddy() throws Exception {
        RelayClient client = new RelayClient(caddy.baseUrl());
        UUID channel = newId();
        RelayClient.Reply created = client.publish(alice, createChannel(alice, channel, "open"));
        assertThat(created.status()).as("%s\n%s", created, caddy.log()).isEqualTo(200);

        try (SyncSocket sync = SyncSocket.connect(caddy.baseUrl())) {
            sync.authenticateOk(alice);
            sync.subscribe("live", "{\"artifact\":\"sync\",\"#h\":[\"" + channel + "\"]}");
            sync.awaitEose("live");

            // Round robin sends the writes to both instances; the socket is held by one of them.
            List<UUID> documents = List.of(newId(), newId(), newId());
            for (UUID d : documents) {
                RelayClient.Reply reply =
                        client.publish(alice, revision(alice, d, channel, "create", null, "via caddy"));
                assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            }
            await().atMost(Duration.ofSeconds(15))
                    .until(
                            () -> sync.store("live").keySet(),
                            heads -> documents.stream().allMatch(d -> heads.contains(d.toString())));
        }
    }

    private static String hostAndPort(TestRelay relay) {
        return relay.baseUrl().substring("http://".length());
    }
}
