package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every error of PROTOCOL 4.5, the gate of section 7 and the capability of section 6. */
@IntegrationTest
class IncrementalErrorsTest {
    @Order(1)
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    // Overrides are system properties that stay set until the class ends: each instance states all it differs in.
    @Order(2)
    @RegisterExtension
    static final TestRelay GATE_OFF =
            TestRelay.anotherInstance(RELAY, ConfigOverride.config("gates.incremental", "false"));

    /** One read at a time; also another community on the same database. */
    @Order(3)
    @RegisterExtension
    static final TestRelay NARROW = TestRelay.anotherInstance(
            RELAY,
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("communities[0].name", "other"),
            ConfigOverride.config("incremental.maxConcurrentReads", "1"),
            ConfigOverride.config("incremental.retryAfterMinSeconds", "7"),
            ConfigOverride.config("incremental.retryAfterMaxSeconds", "9"),
            ConfigOverride.config("incremental.statementBudgetMillis", "60000"));

    @Order(4)
    @RegisterExtension
    static final TestRelay TIGHT_BUDGET = TestRelay.anotherInstance(
            RELAY,
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("communities[0].name", "test"),
            ConfigOverride.config("incremental.maxConcurrentReads", "4"),
            ConfigOverride.config("incremental.statementBudgetMillis", "300"));

    /** Two reads at a time, at most one of them per caller. */
    @Order(5)
    @RegisterExtension
    static final TestRelay FAIR = TestRelay.anotherInstance(
            RELAY,
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("communities[0].name", "test"),
            ConfigOverride.config("incremental.maxConcurrentReads", "2"),
            ConfigOverride.config("incremental.maxConcurrentReadsPerCaller", "1"),
            ConfigOverride.config("incremental.retryAfterMinSeconds", "7"),
            ConfigOverride.config("incremental.retryAfterMaxSeconds", "9"),
            ConfigOverride.config("incremental.statementBudgetMillis", "60000"));

    private final NostrKeys reader = NostrKeys.generate();
    private final RelayClient relay = RELAY.client();

    private static String ids(List<String> values) {
        return values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(",", "[", "]"));
    }

    private static List<String> uuids(int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> UUID.randomUUID().toString())
                .toList();
    }

    private static void assertError(Reply reply, int status, String code) {
        assertThat(reply.status()).as("%s", reply).isEqualTo(status);
        assertThat(reply.error()).isEqualTo(code);
        assertThat(reply.message()).isNotBlank();
        assertThat(reply.json().size()).isEqualTo(2);
    }

    @Test
    void theCapabilityIsListedOnlyWhileTheGateIsOn() {
        assertThat(information(RELAY).path("capabilities").toString()).contains("artifacts.incremental");
        assertThat(information(GATE_OFF).path("capabilities").toString()).doesNotContain("artifacts.incremental");
        assertThat(information(RELAY)
                        .path("artifacts")
                        .path("incremental")
                        .path("overlap_seconds")
                        .asInt())
                .isEqualTo(30);
    }

    private static com.fasterxml.jackson.databind.JsonNode information(TestRelay instance) {
        RelayClient client = instance.client();
        return client.send(client.request("/")
                        .header("Accept", "application/nostr+json")
                        .GET())
                .json();
    }

    @Test
    void gateOffAnswersUnavailableAfterAuthentication() {
        RelayClient off = GATE_OFF.client();
        assertError(off.query(reader, "[{\"artifact\":\"incremental\"}]"), 503, "incremental_unavailable");
        assertError(off.query(reader, "[{\"artifact\":\"incremental\",\"bogus\":1}]"), 503, "incremental_unavailable");
        Reply unsigned = off.send(off.request("/query")
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("[{\"artifact\":\"incremental\"}]")));
        assertThat(unsigned.status()).isEqualTo(401);
        Reply unsignedOn = relay.send(relay.request("/query")
                .header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("[{\"artifact\":\"incremental\"}]")));
        assertThat(unsignedOn.status()).isEqualTo(401);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"artifact\":\"incremental\",\"kinds\":[" + Kinds.ARTIFACT_REVISION + "]}",
                "{\"artifact\":\"incremental\",\"limit\":\"5\"}",
                "{\"artifact\":\"incremental\",\"limit\":0}",
                "{\"artifact\":\"incremental\",\"limit\":1001}",
                "{\"artifact\":\"incremental\",\"limit\":-1}",
                "{\"artifact\":\"incremental\",\"limit\":10000000000}",
                "{\"artifact\":\"incremental\",\"limit\":1.5}",
                "{\"artifact\":\"incremental\",\"since\":7}",
                "{\"artifact\":\"incremental\",\"#h\":[]}",
                "{\"artifact\":\"incremental\",\"#h\":\"not-a-list\"}",
                "{\"artifact\":\"incremental\",\"#h\":[\"NOT-A-UUID\"]}",
                "{\"artifact\":\"incremental\",\"#d\":[\"0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6E00\"]}",
                "{\"artifact\":\"incremental\",\"#d\":[\"0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00\"],\"since\":\"abc\"}",
                "{\"artifact\":\"incremental\",\"#d\":[\"0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00\"],\"limit\":5}"
            })
    void badRequestsAreInvalidRequest(String filter) {
        assertError(relay.query(reader, "[" + filter + "]"), 400, "incremental_invalid_request");
    }

    @Test
    void tooManyChannelsOrIds() {
        assertError(
                relay.query(reader, "[{\"artifact\":\"incremental\",\"#h\":" + ids(uuids(101)) + "}]"),
                400,
                "incremental_scope_too_large");
        assertError(
                relay.query(reader, "[{\"artifact\":\"incremental\",\"#d\":" + ids(uuids(101)) + "}]"),
                400,
                "incremental_too_many_ids");
        assertThat(relay.query(reader, "[{\"artifact\":\"incremental\",\"#h\":" + ids(uuids(100)) + "}]")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void damagedOrForgedCursorsAreInvalid() {
        String cursor = freshCursor();
        char flipped = cursor.charAt(20) == 'A' ? 'B' : 'A';
        String damaged = cursor.substring(0, 20) + flipped + cursor.substring(21);
        for (String bad : List.of("***", "AAAA", damaged, cursor.substring(0, cursor.length() - 4))) {
            assertError(
                    relay.query(reader, "[{\"artifact\":\"incremental\",\"since\":\"" + bad + "\"}]"),
                    400,
                    "incremental_invalid_cursor");
        }
    }

    private String freshCursor() {
        return relay.query(reader, "[{\"artifact\":\"incremental\"}]")
                .json()
                .get("cursor")
                .asText();
    }

    @Test
    void cursorsAreBoundToReaderScopeAndCommunity() {
        String cursor = freshCursor();
        assertError(
                relay.query(NostrKeys.generate(), "[{\"artifact\":\"incremental\",\"since\":\"" + cursor + "\"}]"),
                400,
                "incremental_cursor_mismatch");
        assertError(
                relay.query(
                        reader,
                        "[{\"artifact\":\"incremental\",\"since\":\"" + cursor + "\",\"#h\":" + ids(uuids(1)) + "}]"),
                400,
                "incremental_cursor_mismatch");
        assertError(
                NARROW.client().query(reader, "[{\"artifact\":\"incremental\",\"since\":\"" + cursor + "\"}]"),
                400,
                "incremental_cursor_mismatch");
        assertThat(relay.query(reader, "[{\"artifact\":\"incremental\",\"since\":\"" + cursor + "\"}]")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void aTtlChannelInTheScopeIsNamed() {
        Writer writer = new Writer(relay);
        NostrKeys owner = NostrKeys.generate();
        UUID ttl = writer.channel(owner, "open", tag(Tags.TTL, "120"));
        UUID plain = writer.channel(owner, "open");
        Reply reply = relay.query(
                reader,
                "[{\"artifact\":\"incremental\",\"#h\":" + ids(List.of(plain.toString(), ttl.toString())) + "}]");
        assertThat(reply.status()).as("%s", reply).isEqualTo(422);
        assertThat(reply.error()).isEqualTo("incremental_ttl_channel");
        assertThat(reply.message()).contains(ttl.toString());
        assertThat(reply.json().path("channel").asText())
                .as("the channel in a field of its own too")
                .isEqualTo(ttl.toString());
        assertThat(reply.json().size()).isEqualTo(3);
    }

    @Test
    void aFullBulkheadAnswersCapacityWithJitteredRetryAfter() throws Exception {
        RelayClient narrow = NARROW.client();
        try (Handle blocker = RELAY.jdbi().open()) {
            blocker.begin();
            blocker.execute("LOCK TABLE communities IN ACCESS EXCLUSIVE MODE");
            CompletableFuture<Reply> held =
                    CompletableFuture.supplyAsync(() -> narrow.query(reader, "[{\"artifact\":\"incremental\"}]"));
            awaitReadBlockedOnLock();

            Reply rejected = narrow.query(NostrKeys.generate(), "[{\"artifact\":\"incremental\"}]");
            assertError(rejected, 503, "incremental_capacity");
            assertThat(Integer.parseInt(rejected.response()
                            .headers()
                            .firstValue("Retry-After")
                            .orElseThrow()))
                    .isBetween(7, 9);

            blocker.rollback();
            assertThat(held.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
        assertThat(narrow.query(reader, "[{\"artifact\":\"incremental\"}]").status())
                .isEqualTo(200);
    }

    @Test
    void oneCallerCannotTakeEveryPermit() throws Exception {
        RelayClient fair = FAIR.client();
        NostrKeys other = NostrKeys.generate();
        try (Handle blocker = RELAY.jdbi().open()) {
            blocker.begin();
            blocker.execute("LOCK TABLE communities IN ACCESS EXCLUSIVE MODE");
            CompletableFuture<Reply> held =
                    CompletableFuture.supplyAsync(() -> fair.query(reader, "[{\"artifact\":\"incremental\"}]"));
            awaitReadsBlockedOnLock(1);

            Reply second = fair.query(reader, "[{\"artifact\":\"incremental\"}]");
            assertError(second, 503, "incremental_capacity");
            assertThat(Integer.parseInt(second.response()
                            .headers()
                            .firstValue("Retry-After")
                            .orElseThrow()))
                    .isBetween(7, 9);
            CompletableFuture<Reply> othersRead =
                    CompletableFuture.supplyAsync(() -> fair.query(other, "[{\"artifact\":\"incremental\"}]"));
            awaitReadsBlockedOnLock(2);

            blocker.rollback();
            assertThat(held.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(othersRead.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
        assertThat(fair.query(reader, "[{\"artifact\":\"incremental\"}]").status())
                .as("its share is given back")
                .isEqualTo(200);
    }

    @Test
    void anExhaustedStatementBudgetAnswersTimeout() {
        try (Handle blocker = RELAY.jdbi().open()) {
            blocker.begin();
            blocker.execute("LOCK TABLE communities IN ACCESS EXCLUSIVE MODE");
            assertError(
                    TIGHT_BUDGET.client().query(reader, "[{\"artifact\":\"incremental\"}]"),
                    503,
                    "incremental_timeout");
            assertError(
                    TIGHT_BUDGET
                            .client()
                            .query(reader, "[{\"artifact\":\"incremental\",\"#d\":" + ids(uuids(1)) + "}]"),
                    503,
                    "incremental_timeout");
            blocker.rollback();
        }
        assertThat(TIGHT_BUDGET
                        .client()
                        .query(reader, "[{\"artifact\":\"incremental\"}]")
                        .status())
                .isEqualTo(200);
    }

    private static void awaitReadBlockedOnLock() {
        awaitReadsBlockedOnLock(1);
    }

    private static void awaitReadsBlockedOnLock(int reads) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> RELAY.jdbi()
                                .withHandle(handle -> handle.createQuery("""
                        SELECT count(*) FROM pg_stat_activity
                        WHERE wait_event_type = 'Lock' AND query LIKE '%artifact_policy_modified_at%'""")
                                        .mapTo(Integer.class)
                                        .one())
                        >= reads);
    }
}
