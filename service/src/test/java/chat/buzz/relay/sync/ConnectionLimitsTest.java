package chat.buzz.relay.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Connection caps that hold whether or not connections authenticate: per client address (behind a
 * trusted proxy, the address it forwarded) and per instance, and a full instance makes room for a new
 * connection by shedding the one that has waited longest without authenticating.
 */
@IntegrationTest
class ConnectionLimitsTest {
    private static final int PER_ADDRESS = 4;
    private static final int TOTAL = 6;

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            // Every test client connects from 127.0.0.1: as a trusted proxy it names the client's address.
            ConfigOverride.config("relay.trustedProxies", "127.0.0.1"),
            ConfigOverride.config("sync.maxConnectionsPerAddress", String.valueOf(PER_ADDRESS)),
            ConfigOverride.config("sync.maxConnections", String.valueOf(TOTAL)),
            ConfigOverride.config("sync.maxUnauthenticatedPerAddress", "10"),
            ConfigOverride.config("sync.maxUnauthenticatedConnections", "100"),
            ConfigOverride.config("sync.authTimeoutSeconds", "600"));

    private final List<SyncSocket> connections = new ArrayList<>();

    @AfterEach
    void disconnect() {
        connections.forEach(SyncSocket::close);
        await().atMost(Duration.ofSeconds(30)).until(() -> RELAY.gauge("buzz.sync.connections") == 0);
    }

    @Test
    void freshKeysFromOneAddressAreCappedWhileAnotherAddressStillGetsIn() {
        for (int i = 0; i < PER_ADDRESS; i++) {
            from("203.0.113.9").authenticateOk(NostrKeys.generate());
        }
        long refusedBefore = RELAY.counter("buzz.sync.refused-connections");

        SyncSocket overCap = from("203.0.113.9");
        assertToldAndClosed(overCap, "rate-limited: more than " + PER_ADDRESS + " connections from your address");
        assertThat(RELAY.counter("buzz.sync.refused-connections")).isEqualTo(refusedBefore + 1);

        SyncSocket neighbour = from("198.51.100.7");
        neighbour.authenticateOk(NostrKeys.generate());
        neighbour.subscribe("s", "{\"artifact\":\"sync\"}");
        neighbour.awaitEose("s");
    }

    @Test
    void aFullInstanceShedsTheOldestUnauthenticatedConnectionAndOtherwiseRefuses() {
        for (int i = 0; i < TOTAL - 2; i++) {
            from("10.0.0." + (i + 1)).authenticateOk(NostrKeys.generate());
        }
        SyncSocket oldestWaiting = from("10.0.1.1");
        oldestWaiting.challenge();
        SyncSocket youngerWaiting = from("10.0.1.2");
        youngerWaiting.challenge();
        long shedBefore = RELAY.counter("buzz.sync.shed-unauthenticated");

        SyncSocket newcomer = from("10.0.2.1");
        newcomer.authenticateOk(NostrKeys.generate());
        assertToldAndClosed(oldestWaiting, "rate-limited: the relay is full and this connection had not authenticated");
        assertThat(RELAY.counter("buzz.sync.shed-unauthenticated")).isEqualTo(shedBefore + 1);
        assertThat(youngerWaiting.closedConnection()).isNotDone();

        // Every connection is authenticated now: nobody may be shed, so a further one is refused.
        youngerWaiting.authenticateOk(NostrKeys.generate());
        SyncSocket overTotal = from("10.0.3.1");
        assertToldAndClosed(overTotal, "rate-limited: the relay has too many connections");
        assertThat(newcomer.closedConnection()).isNotDone();
        newcomer.subscribe("s", "{\"artifact\":\"sync\"}");
        newcomer.awaitEose("s");
    }

    @Test
    void theInformationDocumentPublishesTheCaps() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(RELAY.baseUrl() + "/"))
                                .header("Accept", "application/nostr+json")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        JsonNode limitation = new ObjectMapper().readTree(response.body()).get("limitation");
        assertThat(limitation.get("max_connections_per_address").asInt()).isEqualTo(PER_ADDRESS);
        assertThat(limitation.get("max_connections").asInt()).isEqualTo(TOTAL);
        assertThat(limitation.get("max_unauthenticated_per_address").asInt()).isEqualTo(10);
        assertThat(limitation.get("max_connections_per_pubkey").asInt())
                .isEqualTo(RELAY.configuration().getSync().getMaxConnectionsPerPubkey());
        assertThat(limitation.get("max_subscriptions").asInt())
                .isEqualTo(RELAY.configuration().getSync().getMaxSubscriptionsPerConnection());
        assertThat(limitation.get("auth_required").asBoolean()).isTrue();
    }

    private SyncSocket from(String clientAddress) {
        String url = RELAY.baseUrl().replaceFirst("^http", "ws") + "/";
        SyncSocket client = SyncSocket.connectVia(RELAY.baseUrl(), url, Map.of("X-Forwarded-For", clientAddress));
        connections.add(client);
        return client;
    }

    private static void assertToldAndClosed(SyncSocket client, String noticeStart) {
        assertThat(client.awaitNoticeAndPolicyClose()).startsWith(noticeStart);
    }
}
