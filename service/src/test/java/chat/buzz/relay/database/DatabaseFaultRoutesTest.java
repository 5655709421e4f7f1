package chat.buzz.relay.database;

import static chat.buzz.relay.testing.Nostr.newId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.RelayProcess;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestDatabases;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Database faults injected for real on the test's own database, against the relay as its own process with
 * the production configuration and a login role that is not a superuser (a superuser is exempt from a
 * database's connection limit): every public and admin route answers 503 with a Retry-After in its own
 * documented shape, nothing of the driver reaches an answer, the log says so in a few lines however many
 * requests were turned away, and the relay comes back by itself when the fault is lifted.
 */
@IntegrationTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatabaseFaultRoutesTest {
    private static final String OPERATOR_TOKEN = "relay-process-test-operator-token-0001";
    private static final Pattern ADMIN_PORT = Pattern.compile("serving on port \\d+ \\(admin (\\d+)\\)");
    /** Words of the driver, the server or SQL that must never reach an answer. */
    private static final Pattern DRIVER_TEXT =
            Pattern.compile("(?i)psql|sqlstate|exception|fatal|error: |jdbc|select |insert |for database|cannot execute"
                    + "|canceling statement|org\\.|\\bat [a-z]+\\.|\"stack\"");
    /** Jetty's request log: one line per request, which is the log doing its job, not the fault's noise. */
    private static final Pattern REQUEST_LOG_LINE = Pattern.compile("^\\S+ - \\S+ \\[.*\\] \".*");
    /** Rounds of every route during one fault: the reproduction saw the first request get 503, the rest 500. */
    private static final int ROUNDS = 3;
    /** Lines the log may gain during one fault besides the request log, whatever the traffic. */
    private static final int MAX_LOG_LINES_PER_FAULT = 15;

    /**
     * What the fault leaves working: a read-only database still serves reads without a write (the admin
     * API's, readiness, WebSocket sync); every signed HTTP request writes its NIP-98 replay guard first.
     */
    private record Serving(boolean databaseReads, String syncClosed) {
        static final Serving NOTHING = new Serving(false, "error: ");
        static final Serving READS = new Serving(true, null);
    }

    @TempDir
    static Path directory;

    private static String databaseUrl;
    private static String database;
    private static String role;
    private static RelayProcess relay;
    private static String adminUrl;
    private static Connection superuser;

    private final NostrKeys alice = NostrKeys.generate();
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void startTheRelayAsAnOrdinaryRole() throws Exception {
        databaseUrl = TestDatabases.fresh();
        database = databaseUrl.substring(databaseUrl.lastIndexOf('/') + 1).replaceAll("\\?.*", "");
        role = "buzz_faults_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        superuser = DriverManager.getConnection(databaseUrl, TestDatabases.USER, "");
        execute("CREATE ROLE " + role + " LOGIN");
        execute("ALTER DATABASE " + database + " OWNER TO " + role);
        Path log = directory.resolve("relay.log");
        relay = RelayProcess.start(
                databaseUrl,
                log,
                Map.of(
                        "BUZZ_DATABASE_USER", role,
                        "BUZZ_ARTIFACT_INCREMENTAL_ENABLED", "true",
                        "BUZZ_ARTIFACT_SYNC_ENABLED", "true"));
        Matcher admin = ADMIN_PORT.matcher(Files.readString(log));
        assertThat(admin.find()).as("the start-up summary names the admin port").isTrue();
        adminUrl = "http://127.0.0.1:" + admin.group(1);
    }

    @AfterAll
    static void stopAndDrop() throws Exception {
        if (relay != null) {
            relay.close();
        }
        if (superuser != null) {
            superuser.close();
        }
        if (databaseUrl != null) {
            TestDatabases.drop(databaseUrl);
            try (Connection server = DriverManager.getConnection(
                            TestDatabases.withDatabase(databaseUrl, "postgres"), TestDatabases.USER, "");
                    Statement statement = server.createStatement()) {
                statement.execute("DROP ROLE IF EXISTS " + role);
            }
        }
    }

    @Test
    @Order(1)
    void tooManyConnections() throws Exception {
        UUID channel = channelWhileHealthy();
        long logBefore = logLines();
        execute("ALTER DATABASE " + database + " CONNECTION LIMIT 0");
        terminateTheRelaysSessions();
        try {
            everyRouteAnswers503(channel, Serving.NOTHING);
        } finally {
            execute("ALTER DATABASE " + database + " CONNECTION LIMIT -1");
        }
        awaitBackAndQuiet(channel, logBefore, "too many connections");
    }

    @Test
    @Order(2)
    void aReadOnlyDatabaseAsAfterAFailover() throws Exception {
        UUID channel = channelWhileHealthy();
        long logBefore = logLines();
        execute("ALTER DATABASE " + database + " SET default_transaction_read_only = on");
        terminateTheRelaysSessions();
        try {
            everyRouteAnswers503(channel, Serving.READS);
        } finally {
            // No sessions are ended this time: the relay replaces its read-only connections by itself.
            execute("ALTER DATABASE " + database + " RESET default_transaction_read_only");
        }
        awaitBackAndQuiet(channel, logBefore, "read-only");
    }

    @Test
    @Order(3)
    void statementsThatRunOverTheirTimeout() throws Exception {
        UUID channel = channelWhileHealthy();
        long logBefore = logLines();
        execute("ALTER DATABASE " + database + " SET statement_timeout = '200ms'");
        terminateTheRelaysSessions();
        // Every table locked: each statement waits until its timeout cancels it (57014).
        superuser.setAutoCommit(false);
        List<String> tables = new ArrayList<>();
        try (Statement statement = superuser.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public'")) {
            while (rows.next()) {
                tables.add(rows.getString(1));
            }
        }
        execute("LOCK TABLE " + String.join(", ", tables) + " IN ACCESS EXCLUSIVE MODE");
        try {
            everyRouteAnswers503(channel, Serving.NOTHING);
        } finally {
            superuser.rollback();
            superuser.setAutoCommit(true);
        }

        execute("ALTER DATABASE " + database + " RESET statement_timeout");
        awaitBackAndQuiet(channel, logBefore, "time limit");
    }

    private UUID channelWhileHealthy() {
        UUID channel = newId();
        RelayClient client = new RelayClient(relay.baseUrl());
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> client.publish(alice, Nostr.createChannel(alice, channel, "open"))
                                .status()
                        == 200);
        return channel;
    }

    private void everyRouteAnswers503(UUID channel, Serving serving) throws Exception {
        RelayClient client = new RelayClient(relay.baseUrl());
        // The first requests may still find a pooled connection that breaks; every one after must be a 503 too.
        for (int round = 0; round < ROUNDS; round++) {
            Reply write = client.publish(alice, Nostr.revision(alice, newId(), channel, "create", null, "in a fault"));
            assertUnavailable("POST /events", write.response());
            assertThat(write.json().path("event_id").asText())
                    .as("the write's event_id")
                    .hasSize(64);
            assertThat(write.json().path("accepted").isBoolean()).isTrue();
            assertThat(write.json().path("accepted").asBoolean()).isFalse();
            assertThat(write.message()).startsWith("unavailable: ");

            Reply current = client.query(alice, "[{\"artifact\":\"current\",\"#h\":[\"" + channel + "\"]}]");
            assertUnavailable("current", current.response());
            assertThat(current.error()).startsWith("unavailable: ");

            Reply metadata = client.query(alice, "[{\"kinds\":[39000]}]");
            assertUnavailable("channel metadata", metadata.response());
            assertThat(metadata.error()).startsWith("unavailable: ");

            Reply incremental = client.query(alice, "[{\"artifact\":\"incremental\"}]");
            assertUnavailable("incremental", incremental.response());
            assertThat(incremental.error()).isEqualTo("incremental_database_unavailable");
            assertThat(incremental.message()).isNotBlank();

            if (serving.databaseReads()) {
                // Readiness only reads, but it also waits for the change feed, which the terminated
                // sessions took down and which reconnects (LISTEN works on a read-only database) on its own.
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(200))
                        .untilAsserted(() -> assertThat(get(relay.baseUrl() + "/health/ready", null)
                                        .statusCode())
                                .as("readiness only reads")
                                .isEqualTo(200));
            } else {
                HttpResponse<String> ready = get(relay.baseUrl() + "/health/ready", null);
                assertUnavailable("/health/ready", ready);
                assertThat(ready.body()).isEqualTo("{\"status\":\"not ready\"}");
            }
            assertThat(get(relay.baseUrl() + "/health/live", null).statusCode())
                    .as("the process lives: restarting it would not bring the database back")
                    .isEqualTo(200);

            for (String route : List.of(
                    "/api/flags",
                    "/api/flags/history",
                    "/api/migrations",
                    "/api/instances",
                    "/api/bursts",
                    "/api/audit")) {
                HttpResponse<String> admin = get(adminUrl + route, OPERATOR_TOKEN);
                if (serving.databaseReads()) {
                    assertThat(admin.statusCode())
                            .as(route + " only reads: " + admin.body())
                            .isEqualTo(200);
                    continue;
                }
                assertUnavailable(route, admin);
                assertThat(RelayClient.JSON.readTree(admin.body()).path("error").asText())
                        .as(route)
                        .isEqualTo("database_unavailable");
            }
            HttpResponse<String> task = http.send(
                    HttpRequest.newBuilder(URI.create(adminUrl + "/tasks/forget-instance?instance=x&reason=fault"))
                            .header("Authorization", "Bearer " + OPERATOR_TOKEN)
                            .header("X-Buzz-Operator", "1")
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertUnavailable("/tasks/forget-instance", task);
            assertThat(RelayClient.JSON.readTree(task.body()).path("error").asText())
                    .isEqualTo("database_unavailable");

            HttpResponse<String> health = get(adminUrl + "/healthcheck", OPERATOR_TOKEN);
            assertUnavailable("/healthcheck", health);
            assertThat(RelayClient.JSON
                            .readTree(health.body())
                            .path("postgresql")
                            .path("healthy")
                            .asBoolean(true))
                    .isFalse();
        }
        try (SyncSocket socket = SyncSocket.connect(relay.baseUrl())) {
            socket.authenticate(alice);
            socket.send("[\"REQ\",\"in-fault\",{\"artifact\":\"sync\"}]");
            if (serving.syncClosed() == null) {
                socket.awaitEose("in-fault");
            } else {
                assertThat(socket.awaitClosed("in-fault")).startsWith(serving.syncClosed());
            }
        }
    }

    private void awaitBackAndQuiet(UUID channel, long logBefore, String cause) throws Exception {
        RelayClient client = new RelayClient(relay.baseUrl());
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> client.publish(alice, Nostr.revision(alice, newId(), channel, "create", null, "after"))
                                        .status()
                                == 200
                        && Files.readAllLines(relay.log()).stream()
                                .skip(logBefore)
                                .anyMatch(line -> line.contains("Database available again")));
        List<String> during = Files.readAllLines(relay.log()).stream()
                .skip(logBefore)
                .filter(line -> !REQUEST_LOG_LINE.matcher(line).matches())
                .toList();
        assertThat(during)
                .as("what the log gained during the fault, besides the request log")
                .hasSizeLessThanOrEqualTo(MAX_LOG_LINES_PER_FAULT)
                .noneMatch(line -> line.startsWith("! ") || line.matches("\\s+at .*"))
                .anyMatch(line -> line.contains("Database unavailable") && line.contains(cause))
                .anyMatch(line -> line.contains("Database available again after ")
                        && line.matches(".*; \\d+ requests were answered 503 meanwhile.*"));
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
        assertThat(response.body()).as(route).doesNotContainPattern(DRIVER_TEXT);
    }

    private HttpResponse<String> get(String url, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long logLines() throws Exception {
        return Files.readAllLines(relay.log()).size();
    }

    private static void terminateTheRelaysSessions() throws SQLException {
        try (Statement statement = superuser.createStatement()) {
            statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '" + role + "'");
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Statement statement = superuser.createStatement()) {
            statement.execute(sql);
        }
    }
}
