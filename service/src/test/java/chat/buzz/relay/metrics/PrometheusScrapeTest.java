package chat.buzz.relay.metrics;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Replies.accepted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /metrics/prometheus} on the admin port: Prometheus text from the relay's own Dropwizard
 * registry, for an operator's token or the read-only metrics token, and nothing for anyone else.
 */
@IntegrationTest
class PrometheusScrapeTest {
    private static final String METRICS_TOKEN = "test-metrics-token-scraper-0003";

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(Map.of("admin.metricsToken", METRICS_TOKEN, "gates.sync", "true"));

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void anOperatorScrapesPrometheusTextThatFollowsWhatTheRelayDid() throws Exception {
        HttpResponse<String> before = scrape(Optional.of(AdminClient.OLIVIA));
        assertThat(before.statusCode()).as(before.body()).isEqualTo(200);
        assertThat(before.headers().firstValue("Content-Type").orElse(""))
                .startsWith("text/plain")
                .contains("version=0.0.4");
        assertThat(before.body())
                .contains("# TYPE buzz_events_outcome_accepted_total counter")
                .contains("# TYPE gates_incremental_enabled gauge")
                .contains("# TYPE buzz_sync_connections gauge")
                .contains("# TYPE buzz_current_reads_refused_total counter")
                .contains("# TYPE io_dropwizard_db_ManagedPooledDataSource_postgresql_active gauge");

        NostrKeys owner = NostrKeys.generate();
        RelayClient client = RELAY.client();
        Event create = createChannel(owner, newId(), "open");
        accepted(client.publish(owner, create));
        accepted(client.publish(owner, create));

        String after = scrape(Optional.of(AdminClient.OLIVIA)).body();
        assertThat(sample(after, "buzz_events_outcome_accepted_total")
                        - sample(before.body(), "buzz_events_outcome_accepted_total"))
                .isEqualTo(1.0);
        assertThat(sample(after, "buzz_events_outcome_duplicate_total")
                        - sample(before.body(), "buzz_events_outcome_duplicate_total"))
                .isEqualTo(1.0);
        assertThat(sample(after, "chat_buzz_relay_events_EventsResource_publish_count")
                        - sample(before.body(), "chat_buzz_relay_events_EventsResource_publish_count"))
                .as("the write route's timer")
                .isEqualTo(2.0);

        JsonNode flags = RELAY.admin().get("/api/flags").json();
        boolean incremental = flagEnabled(flags, "incremental");
        assertThat(sample(after, "gates_incremental_enabled")).isEqualTo(incremental ? 1.0 : 0.0);
    }

    /**
     * Each family an SRE's dashboard needs, after the relay served a signed write, a signed read (and its
     * replay), NIP-11 and a WebSocket subscriber: per route and protocol, bulkheads, WebSocket
     * connections and subscriptions, fan-out lag, the pool against its maximum, the replay guard's and
     * the write path's outcomes, and the gates. docs/operations.md lists the same names.
     */
    @Test
    void everyFamilyAnSreNeedsIsScrapedAndMovesWithTraffic() throws Exception {
        String before = scrape(Optional.of(AdminClient.OLIVIA)).body();
        NostrKeys owner = NostrKeys.generate();
        RelayClient client = RELAY.client();
        try (SyncSocket subscriber = SyncSocket.connect(RELAY.baseUrl())) {
            subscriber.authenticate(owner);
            subscriber.send("[\"REQ\",\"everything\",{\"artifact\":\"sync\"}]");
            subscriber.awaitEose("everything");

            accepted(client.publish(owner, createChannel(owner, newId(), "open")));
            String header = Nip98.authorizationHeader(
                    owner,
                    "POST",
                    RELAY.baseUrl() + "/query",
                    QUERY.getBytes(StandardCharsets.UTF_8),
                    System.currentTimeMillis() / 1000);
            assertThat(signedQuery(client, header).status()).isEqualTo(200);
            assertThat(signedQuery(client, header).status()).as("replayed").isEqualTo(401);
            assertThat(http.send(
                                    HttpRequest.newBuilder(URI.create(RELAY.baseUrl() + "/"))
                                            .header("Accept", "application/nostr+json")
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .isEqualTo(200);

            String after = await().atMost(Duration.ofSeconds(15))
                    .until(
                            () -> scrape(Optional.of(AdminClient.OLIVIA)).body(),
                            body -> sample(body, "buzz_sync_fanout_lag_count")
                                    > sample(before, "buzz_sync_fanout_lag_count"));
            Map<String, String> families = new java.util.LinkedHashMap<>();
            families.put("chat_buzz_relay_events_EventsResource_publish", "summary");
            families.put("chat_buzz_relay_query_QueryResource_query", "summary");
            families.put("chat_buzz_relay_info_InformationResource_information", "summary");
            families.put("buzz_sync_messages_auth", "summary");
            families.put("buzz_sync_messages_req", "summary");
            families.put("buzz_sync_messages_close", "summary");
            families.put("buzz_current_reads_refused_total", "counter");
            families.put("buzz_incremental_reads_refused_total", "counter");
            families.put("buzz_sync_refused_connections_total", "counter");
            families.put("buzz_sync_connections", "gauge");
            families.put("buzz_sync_subscriptions", "gauge");
            families.put("buzz_sync_fanout_lag", "summary");
            families.put("buzz_sync_fanout_pending", "gauge");
            families.put("io_dropwizard_db_ManagedPooledDataSource_postgresql_active", "gauge");
            families.put("io_dropwizard_db_ManagedPooledDataSource_postgresql_size", "gauge");
            families.put("buzz_database_pool_max_size", "gauge");
            families.put("buzz_nip98_replay_guard_accepted_total", "counter");
            families.put("buzz_nip98_replay_guard_replayed_total", "counter");
            families.put("buzz_nip98_replay_guard_failed_total", "counter");
            families.put("buzz_events_outcome_accepted_total", "counter");
            families.put("buzz_events_outcome_duplicate_total", "counter");
            families.put("gates_incremental_enabled", "gauge");
            families.put("gates_sync_enabled", "gauge");
            families.put("gates_scoped_policy_enabled", "gauge");
            families.forEach((family, type) -> assertThat(after)
                    .as("family %s", family)
                    .containsPattern("(?m)^# TYPE " + Pattern.quote(family) + " " + type + "$"));

            assertThat(moved(before, after, "buzz_nip98_replay_guard_accepted_total"))
                    .as("the write and the first read")
                    .isEqualTo(2.0);
            assertThat(moved(before, after, "buzz_nip98_replay_guard_replayed_total"))
                    .isEqualTo(1.0);
            assertThat(moved(before, after, "buzz_nip98_replay_guard_failed_total"))
                    .isZero();
            assertThat(moved(before, after, "chat_buzz_relay_query_QueryResource_query_count"))
                    .as("the replayed read never reached the route")
                    .isEqualTo(1.0);
            assertThat(moved(before, after, "buzz_sync_messages_auth_count")).isEqualTo(1.0);
            assertThat(moved(before, after, "buzz_sync_messages_req_count")).isEqualTo(1.0);
            assertThat(sample(after, "buzz_sync_connections")).isGreaterThanOrEqualTo(1.0);
            assertThat(sample(after, "buzz_sync_subscriptions")).isGreaterThanOrEqualTo(1.0);
            assertThat(sample(after, "buzz_database_pool_max_size"))
                    .isEqualTo(RELAY.configuration().getDataSourceFactory().getMaxSize());
            assertThat(sample(after, "io_dropwizard_db_ManagedPooledDataSource_postgresql_active"))
                    .isLessThanOrEqualTo(sample(after, "buzz_database_pool_max_size"));
        }
    }

    private static final String QUERY = "[{\"artifact\":\"current\"}]";

    private static RelayClient.Reply signedQuery(RelayClient client, String header) {
        return client.send(client.request("/query")
                .header("Authorization", header)
                .POST(HttpRequest.BodyPublishers.ofString(QUERY)));
    }

    private static double moved(String before, String after, String name) {
        return sample(after, name) - sample(before, name);
    }

    @Test
    void withoutATokenTheScrapeIsRefusedWithAJsonError() throws Exception {
        for (Optional<String> token : new Optional[] {Optional.empty(), Optional.of("not-a-token-at-all-000000")}) {
            HttpResponse<String> refused = scrape(token);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(401);
            assertThat(refused.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
            assertThat(new ObjectMapper().readTree(refused.body()).get("error").asText())
                    .isEqualTo("admin_unauthorized");
        }
    }

    @Test
    void theMetricsTokenScrapesButOpensNothingElse() throws Exception {
        HttpResponse<String> scraped = scrape(Optional.of(METRICS_TOKEN));
        assertThat(scraped.statusCode()).as(scraped.body()).isEqualTo(200);
        assertThat(scraped.body()).contains("# TYPE buzz_sync_subscriptions gauge");

        AdminClient scraper = new AdminClient(RELAY.adminUrl(), METRICS_TOKEN);
        for (String path : new String[] {"/metrics", "/api/flags", "/healthcheck"}) {
            assertThat(scraper.get(path).status()).as(path).isEqualTo(401);
        }
        assertThat(scraper.task("gc", Map.of()).status()).isEqualTo(401);
    }

    private HttpResponse<String> scrape(Optional<String> token) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/metrics/prometheus"))
                .GET();
        token.ifPresent(value -> request.header("Authorization", "Bearer " + value));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The value of an unlabelled sample line {@code name value}. */
    private static double sample(String exposition, String name) {
        Matcher line =
                Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(exposition);
        assertThat(line.find()).as("a sample " + name + " in:\n" + exposition).isTrue();
        return Double.parseDouble(line.group(1));
    }

    private static boolean flagEnabled(JsonNode flags, String gate) {
        for (JsonNode flag : flags.isArray() ? flags : flags.path("flags")) {
            if (gate.equals(flag.path("gate").asText())) {
                return flag.path("effective").asBoolean();
            }
        }
        throw new AssertionError("no gate " + gate + " in " + flags);
    }
}
