package chat.buzz.relay.auth;

import static chat.buzz.relay.testing.Nostr.newId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RedisServer;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.RelayProcess;
import chat.buzz.relay.testing.TestDatabases;
import chat.buzz.relay.testing.TestRedis;
import chat.buzz.relay.testing.TestRelay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay guard's Redis taken away and brought back, with a Redis of this test's own (the shared one is
 * never stopped) and the relay as its own process from config/production.yml: every signed route answers
 * the 503 a database outage gets, in its own shape and with a Retry-After, never a 500 and never served
 * unrecorded; readiness says not ready; the log says so once however many requests were turned away; and
 * the relay serves again by itself once Redis is back.
 */
@IntegrationTest
class ReplayGuardRedisOutageTest {
    private static final String OPERATOR_TOKEN = "relay-process-test-operator-token-0001";
    private static final Pattern ADMIN_PORT = Pattern.compile("serving on port \\d+ \\(admin (\\d+)\\)");
    private static final Pattern REQUEST_LOG_LINE = Pattern.compile("^\\S+ - \\S+ \\[.*\\] \".*");
    private static final String QUERY = "[{\"artifact\":\"current\"}]";
    /** Rounds of every route during the outage: one log line must cover them all. */
    private static final int ROUNDS = 3;

    @TempDir
    static Path directory;

    private static RedisServer redis;
    private static String databaseUrl;
    private static RelayProcess relay;
    private static String adminUrl;

    private final NostrKeys alice = NostrKeys.generate();
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServer.start(directory);
        databaseUrl = TestDatabases.fresh();
        Path log = directory.resolve("relay.log");
        relay = RelayProcess.start(
                databaseUrl,
                log,
                Map.of(
                        "BUZZ_REPLAY_GUARD", "redis",
                        "BUZZ_REPLAY_GUARD_REDIS_URL", redis.url(),
                        "BUZZ_ARTIFACT_INCREMENTAL_ENABLED", "true"));
        Matcher admin = ADMIN_PORT.matcher(Files.readString(log));
        assertThat(admin.find()).as("the start-up summary names the admin port").isTrue();
        adminUrl = "http://127.0.0.1:" + admin.group(1);
    }

    @AfterAll
    static void stop() throws Exception {
        if (relay != null) {
            relay.close();
        }
        if (redis != null) {
            redis.close();
        }
        if (databaseUrl != null) {
            TestDatabases.drop(databaseUrl);
        }
    }

    @Test
    void signedRequestsAre503WhileRedisIsGoneAndServedOnceItIsBack() throws Exception {
        RelayClient client = new RelayClient(relay.baseUrl());
        assertThat(client.query(alice, QUERY).status()).isEqualTo(200);
        assertThat(Files.readString(relay.log())).contains("NIP-98 replay guard: Redis at " + redis.url());
        long logBefore = Files.readAllLines(relay.log()).size();

        redis.stop();
        String headerSentDuringTheOutage = header();
        for (int round = 0; round < ROUNDS; round++) {
            Reply write = client.publish(alice, Nostr.createChannel(alice, newId(), "open"));
            assertUnavailable("POST /events", write.response());
            assertThat(write.json().path("event_id").asText()).hasSize(64);
            assertThat(write.json().path("accepted").asBoolean(true)).isFalse();
            assertThat(write.message()).startsWith("unavailable: ");

            Reply current = client.query(alice, QUERY);
            assertUnavailable("current", current.response());
            assertThat(current.error()).startsWith("unavailable: ");

            Reply incremental = client.query(alice, "[{\"artifact\":\"incremental\"}]");
            assertUnavailable("incremental", incremental.response());
            assertThat(incremental.error()).isEqualTo("incremental_database_unavailable");

            Reply sameHeader = sendQuery(client, headerSentDuringTheOutage);
            assertUnavailable("a header that is never served unrecorded", sameHeader.response());
        }
        assertThat(get(relay.baseUrl() + "/", "application/nostr+json", null).statusCode())
                .as("the unsigned NIP-11 document needs no guard")
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    HttpResponse<String> ready = get(relay.baseUrl() + "/health/ready", null, null);
                    assertUnavailable("/health/ready", ready);
                    assertThat(ready.body()).isEqualTo("{\"status\":\"not ready\"}");
                });
        assertThat(get(relay.baseUrl() + "/health/live", null, null).statusCode())
                .isEqualTo(200);
        HttpResponse<String> health = get(adminUrl + "/healthcheck", null, OPERATOR_TOKEN);
        assertUnavailable("/healthcheck", health);
        assertThat(RelayClient.JSON
                        .readTree(health.body())
                        .path(RedisReplayGuardHealthCheck.NAME)
                        .path("healthy")
                        .asBoolean(true))
                .isFalse();
        assertThat(RelayClient.JSON
                        .readTree(health.body())
                        .path(RedisReplayGuardHealthCheck.NAME)
                        .path("message")
                        .asText())
                .contains("connections to it are refused, break or time out");
        assertThat(RelayClient.JSON
                        .readTree(health.body())
                        .path("postgresql")
                        .path("healthy")
                        .asBoolean())
                .as("the database is fine; only Redis is not")
                .isTrue();

        redis.start();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> client.query(alice, QUERY).status() == 200
                        && get(relay.baseUrl() + "/health/ready", null, null).statusCode() == 200
                        && logSince(logBefore).stream().anyMatch(line -> line.contains("available again")));
        // Turned away, it was never recorded: served now, once.
        assertThat(sendQuery(client, headerSentDuringTheOutage).status()).isEqualTo(200);
        Reply replay = sendQuery(client, headerSentDuringTheOutage);
        assertThat(replay.status()).isEqualTo(401);
        assertThat(replay.error()).isEqualTo("NIP-98: replay detected");

        List<String> during = logSince(logBefore).stream()
                .filter(line -> !REQUEST_LOG_LINE.matcher(line).matches())
                .toList();
        assertThat(during)
                .as("what the log gained during the outage, besides the request log")
                .noneMatch(line -> line.startsWith("! ") || line.matches("\\s+at .*"))
                .noneMatch(line -> line.contains("incident"))
                .filteredOn(line -> line.contains("Replay guard's Redis at " + redis.url() + " unavailable: "))
                .hasSize(1);
        assertThat(during)
                .filteredOn(line -> line.contains("Replay guard's Redis at"))
                .as("one line at the start, perhaps one per other kind of failure, one at the end")
                .hasSizeBetween(2, 4)
                .anyMatch(line -> line.matches(
                        ".*available again after \\d+ s; \\d+ signed requests were answered " + "503 meanwhile.*"));
    }

    @Test
    void anInstanceStartedWhileRedisIsDownStartsNotReadyAndServesOnceItIsUp() throws Exception {
        Path own = Files.createDirectory(directory.resolve("late-redis"));
        try (RedisServer late = RedisServer.start(own)) {
            late.stop();
            TestRelay relayBeforeRedis = TestRelay.create(Map.of(
                    "replayGuard.store", "redis",
                    "replayGuard.redisUrl", late.url(),
                    "replayGuard.redisKeyPrefix", TestRedis.freshPrefix()));
            relayBeforeRedis.start();
            try {
                RelayClient client = new RelayClient(relayBeforeRedis.baseUrl());
                assertUnavailable(
                        "current before Redis", client.query(alice, QUERY).response());
                assertThat(get(relayBeforeRedis.baseUrl() + "/health/ready", null, null)
                                .statusCode())
                        .isEqualTo(503);

                late.start();
                await().atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(250))
                        .until(() -> get(relayBeforeRedis.baseUrl() + "/health/ready", null, null)
                                                .statusCode()
                                        == 200
                                && client.query(alice, QUERY).status() == 200);
            } finally {
                relayBeforeRedis.stop();
                TestDatabases.drop(relayBeforeRedis.databaseUrl());
            }
        }
    }

    private String header() {
        return Nip98.authorizationHeader(
                alice,
                "POST",
                relay.baseUrl() + "/query",
                QUERY.getBytes(StandardCharsets.UTF_8),
                System.currentTimeMillis() / 1000);
    }

    private static Reply sendQuery(RelayClient client, String header) {
        return client.send(client.request("/query")
                .header("Authorization", header)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(QUERY)));
    }

    private static List<String> logSince(long line) throws Exception {
        return Files.readAllLines(relay.log()).stream().skip(line).toList();
    }

    private static void assertUnavailable(String route, HttpResponse<String> response) {
        assertThat(response.statusCode()).as(route + ": " + response.body()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After"))
                .as(route)
                .hasValueSatisfying(
                        seconds -> assertThat(Integer.parseInt(seconds)).isBetween(1, 60));
        assertThat(response.headers().firstValue("Content-Type"))
                .as(route)
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(response.body())
                .as(route)
                .doesNotContainIgnoringCase("jedis")
                .doesNotContainIgnoringCase("exception");
    }

    private HttpResponse<String> get(String url, String accept, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        if (accept != null) {
            request.header("Accept", accept);
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
