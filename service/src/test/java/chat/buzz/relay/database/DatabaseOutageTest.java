package chat.buzz.relay.database;

import static chat.buzz.relay.testing.Nostr.newId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.DedicatedPostgres;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Database faults: the relay's own PostgreSQL is shut down under traffic and
 * started again. Meanwhile every route answers 503 with a Retry-After in its own shape (never a 500);
 * afterwards the relay serves again without a restart, subscribers are reset and resubscribe, and
 * every write that was acknowledged is there.
 */
@IntegrationTest
class DatabaseOutageTest {
    private static DedicatedPostgres postgres;
    private static TestRelay relay;

    private final NostrKeys alice = NostrKeys.generate();
    private final NostrKeys bob = NostrKeys.generate();

    @BeforeAll
    static void startRelayOnItsOwnServer() throws Exception {
        postgres = DedicatedPostgres.start();
        relay = TestRelay.onDatabase(
                postgres.jdbcUrl(),
                ConfigOverride.config("gates.incremental", "true"),
                ConfigOverride.config("gates.sync", "true"));
        relay.start();
    }

    @AfterAll
    static void stopBoth() {
        if (relay != null) {
            relay.stop();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void anOutageIsA503WithRetryAfterEverywhereAndTheRelayRecoversWithoutLosingAnAcknowledgedWrite() throws Exception {
        RelayClient client = relay.client();
        UUID channel = newId();
        assertThat(client.publish(alice, Nostr.createChannel(alice, channel, "open"))
                        .status())
                .isEqualTo(200);

        try (SyncSocket follower = SyncSocket.connect(relay.baseUrl())) {
            follower.authenticateOk(bob);
            follower.subscribeLive("live", "{\"artifact\":\"sync\"}");
            await().atMost(Duration.ofSeconds(30)).until(() -> follower.liveAtEose("live"));

            Traffic traffic = new Traffic(client, channel);
            Thread writer = new Thread(traffic::run, "outage-test-writer");
            writer.start();
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> traffic.acknowledged.size() >= 5);

                postgres.stop();
                await().atMost(Duration.ofSeconds(30)).until(() -> traffic.turnedAway.get());
                assertEveryRouteAnswers503(client, channel);
                follower.send("[\"REQ\",\"during\",{\"artifact\":\"sync\"}]");
                assertThat(follower.awaitClosed("during")).startsWith("error: ");

                postgres.startAgain();
                int acknowledgedBefore = traffic.acknowledged.size();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> traffic.acknowledged.size() >= acknowledgedBefore + 5);
                await().atMost(Duration.ofSeconds(30)).until(() -> follower.resubscriptions() >= 1);
            } finally {
                traffic.stop.set(true);
                writer.join();
            }

            assertThat(traffic.unexpected)
                    .as("every answer was 200, or a 503 in the write reply's shape")
                    .isEmpty();
            Set<String> acknowledged = Set.copyOf(traffic.acknowledged);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() ->
                            assertThat(follower.liveStore("live").keySet()).containsAll(acknowledged));
            assertThat(currentArtifacts(client, channel)).containsAll(acknowledged);
        }
    }

    private void assertEveryRouteAnswers503(RelayClient client, UUID channel) throws Exception {
        Reply write = client.publish(alice, Nostr.revision(alice, newId(), channel, "create", null, "in the outage"));
        assertRetryAfter(write.status(), write.response());
        assertThat(write.json().path("accepted").asBoolean(true)).isFalse();
        assertThat(write.message()).startsWith("unavailable: ");
        assertThat(write.json().path("event_id").asText()).hasSize(64);

        Reply current = client.query(alice, "[{\"artifact\":\"current\",\"#h\":[\"" + channel + "\"]}]");
        assertRetryAfter(current.status(), current.response());
        assertThat(current.error()).startsWith("unavailable: ");

        Reply incremental = client.query(alice, "[{\"artifact\":\"incremental\"}]");
        assertRetryAfter(incremental.status(), incremental.response());
        assertThat(incremental.error()).isEqualTo("incremental_database_unavailable");
        assertThat(incremental.message()).isNotBlank();

        for (String route : List.of("/api/migrations", "/api/instances")) {
            HttpResponse<String> admin = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(relay.adminUrl() + route))
                                    .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertRetryAfter(admin.statusCode(), admin);
            assertThat(RelayClient.JSON.readTree(admin.body()).path("error").asText())
                    .as(route)
                    .isEqualTo("database_unavailable");
        }
    }

    private static void assertRetryAfter(int status, HttpResponse<String> response) {
        assertThat(status).as(response.body()).isEqualTo(503);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(response.headers().firstValue("Retry-After"))
                .hasValueSatisfying(
                        seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 60));
    }

    private Set<String> currentArtifacts(RelayClient client, UUID channel) {
        Reply reply = client.query(alice, "[{\"artifact\":\"current\",\"#h\":[\"" + channel + "\"],\"limit\":1000}]");
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        Set<String> ids = new java.util.HashSet<>();
        for (JsonNode event : reply.json()) {
            ids.add(SyncSocket.tag(event, Tags.ARTIFACT_ID));
        }
        return ids;
    }

    /** One writer creating artifacts as fast as the relay answers, remembering what was acknowledged. */
    private final class Traffic {
        final RelayClient client;
        final UUID channel;
        final List<String> acknowledged = new CopyOnWriteArrayList<>();
        final Set<String> unexpected = ConcurrentHashMap.newKeySet();
        final AtomicBoolean turnedAway = new AtomicBoolean();
        final AtomicBoolean stop = new AtomicBoolean();

        Traffic(RelayClient client, UUID channel) {
            this.client = client;
            this.channel = channel;
        }

        void run() {
            while (!stop.get()) {
                UUID d = newId();
                Reply reply = client.publish(alice, Nostr.revision(alice, d, channel, "create", null, "t " + d));
                if (reply.status() == 200 && reply.json().path("accepted").asBoolean()) {
                    acknowledged.add(d.toString());
                } else if (reply.status() == 503
                        && reply.response().headers().firstValue("Retry-After").isPresent()
                        && reply.message().startsWith("unavailable: ")) {
                    turnedAway.set(true);
                } else {
                    unexpected.add(reply.toString());
                }
            }
        }
    }
}
