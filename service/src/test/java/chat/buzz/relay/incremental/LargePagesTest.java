package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pages of up to 1,000 entries and about 4 MiB of event JSON (PROTOCOL 4.1): the limit and the byte
 * budget cut pages, the walk still ends with exactly what the reader sees, and the bulkhead, per-caller
 * share and statement budget hold for such pages as for small ones.
 */
@IntegrationTest
class LargePagesTest {
    @Order(1)
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    // Overrides are system properties that stay set until the class ends: each instance states all it differs in.
    /** Two permits, one per caller, and a budget long enough that only the test's lock decides. */
    @Order(2)
    @RegisterExtension
    static final TestRelay SHARED = TestRelay.anotherInstance(
            RELAY,
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("incremental.maxConcurrentReads", "2"),
            ConfigOverride.config("incremental.maxConcurrentReadsPerCaller", "1"),
            ConfigOverride.config("incremental.statementBudgetMillis", "60000"));

    @Order(3)
    @RegisterExtension
    static final TestRelay TIGHT_BUDGET = TestRelay.anotherInstance(
            RELAY,
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("incremental.maxConcurrentReads", "4"),
            ConfigOverride.config("incremental.maxConcurrentReadsPerCaller", "2"),
            ConfigOverride.config("incremental.statementBudgetMillis", "300"));

    /** Small heads: a page of 1,000 of them is far below the byte budget. */
    private static final int SMALL = 1_050;
    /** Heads of about 6 KB: 1,000 of them are about 6 MB, more than one page carries. */
    private static final int LARGE = 1_000;

    private static final int LARGE_PADDING = 6_000;

    private static final NostrKeys OWNER = NostrKeys.generate();
    private static final NostrKeys READER = NostrKeys.generate();
    private static final Set<String> small = new HashSet<>();
    private static final Set<String> large = new HashSet<>();
    private static UUID smallChannel;
    private static UUID largeChannel;
    /** The UTF-8 bytes of each large head's stored JSON (all the same length). */
    private static int largeEventBytes;

    @BeforeAll
    static void seed() {
        RelayClient relay = RELAY.client();
        smallChannel = Nostr.newId();
        largeChannel = Nostr.newId();
        for (UUID channel : List.of(smallChannel, largeChannel)) {
            Replies.accepted(relay.publish(OWNER, Nostr.createChannel(OWNER, channel, "private")));
            Replies.accepted(relay.publish(
                    OWNER, Nostr.membership(OWNER, Kinds.ADD_MEMBER, channel, READER.publicKeyHex(), null)));
        }
        // The heads go in through SQL: a thousand signed writes would cost the shared machine more than
        // the pages under test. The relay sends stored event JSON as it is, so these rows stand for
        // signed heads as far as paging goes.
        RELAY.jdbi().useHandle(h -> {
            h.execute("SET session_replication_role = replica");
            small.addAll(insertHeads(h, smallChannel, SMALL, 50, "small "));
            large.addAll(insertHeads(h, largeChannel, LARGE, LARGE_PADDING, "large "));
            h.execute("ANALYZE artifact_heads");
            List<Integer> lengths = h.createQuery("""
                    SELECT DISTINCT octet_length(e.json) FROM artifact_heads a JOIN events e ON e.id = a.head_event_id
                    WHERE a.channel_id = :channel""")
                    .bind("channel", largeChannel)
                    .mapTo(Integer.class)
                    .list();
            assertThat(lengths).hasSize(1);
            largeEventBytes = lengths.get(0);
        });
        assertThat((long) LARGE * largeEventBytes).isGreaterThan(Limits.INCREMENTAL_PAGE_BYTES);
    }

    private static List<String> insertHeads(Handle h, UUID channel, int count, int padding, String label) {
        long community = h.createQuery("SELECT community_id FROM channels WHERE id = :id")
                .bind("id", channel)
                .mapTo(Long.class)
                .one();
        return h.createQuery("""
                WITH seeded AS (
                    SELECT g, gen_random_uuid() AS d, encode(sha256(convert_to(:label || g, 'UTF8')), 'hex') AS id
                    FROM generate_series(1, :count) g),
                stored AS (
                    INSERT INTO events (id, community_id, pubkey, kind, created_at, tags, json)
                    SELECT id, :community, :owner, :kind, 0, jsonb_build_array(jsonb_build_array('d', CAST(d AS text))),
                           json_build_object('id', id, 'kind', :kind,
                                             'tags', json_build_array(json_build_array('d', CAST(d AS text))),
                                             'content', repeat('x', :padding))::text
                    FROM seeded),
                heads AS (
                    INSERT INTO artifact_heads (community_id, d, channel_id, head_event_id, type, modified_at)
                    SELECT :community, d, :channel, id, 'task.item', now() - INTERVAL '1 hour' + g * INTERVAL '1 ms'
                    FROM seeded)
                SELECT CAST(d AS text) FROM seeded""")
                .bind("label", label)
                .bind("count", count)
                .bind("community", community)
                .bind("owner", OWNER.publicKeyHex())
                .bind("kind", Kinds.ARTIFACT_REVISION)
                .bind("padding", padding)
                .bind("channel", channel)
                .mapTo(String.class)
                .list();
    }

    @Test
    void aBootstrapPageCarriesAThousandEntries() {
        SyncingClient client = new SyncingClient(RELAY.client(), READER, List.of(smallChannel.toString()));
        assertThat(client.page(1000)).hasSize(1000);
        assertThat(client.midSession).isTrue();
        assertThat(client.page(1000)).hasSize(SMALL - 1000);
        while (client.midSession) {
            assertThat(client.page(1000)).isEmpty();
        }
        assertThat(client.store.keySet()).isEqualTo(small);
    }

    @Test
    void aPageOfOneEntry() {
        SyncingClient client = new SyncingClient(RELAY.client(), READER, List.of(smallChannel.toString()));
        assertThat(client.page(1)).hasSize(1);
        assertThat(client.midSession).isTrue();
    }

    @Test
    void theByteBudgetEndsAPageEarlyAndTheWalkStillConverges() {
        SyncingClient client = new SyncingClient(RELAY.client(), READER, List.of(largeChannel.toString()));
        int perPage = Limits.INCREMENTAL_PAGE_BYTES / largeEventBytes;
        int pages = 0;
        int delivered = 0;
        do {
            List<JsonNode> entries = client.page(1000);
            pages++;
            delivered += entries.size();
            if (client.midSession && delivered < LARGE) {
                assertThat(entries).as("page %d", pages).hasSize(perPage);
            }
        } while (client.midSession);
        assertThat(perPage).isLessThan(LARGE);
        assertThat(delivered).isEqualTo(LARGE);
        assertThat(pages).isGreaterThanOrEqualTo((LARGE + perPage - 1) / perPage);
        assertThat(client.store.keySet()).isEqualTo(large);
        assertThat(client.session(1000)).as("a delta right after has nothing").isEmpty();
    }

    @Test
    void cursorsContinueAcrossPagesOfDifferentSizes() {
        SyncingClient client =
                new SyncingClient(RELAY.client(), READER, List.of(smallChannel.toString(), largeChannel.toString()));
        int[] limits = {1, 1000, 7, 250, 1000, 3, 100, 1000};
        int pages = 0;
        int delivered = 0;
        do {
            delivered += client.page(limits[pages % limits.length]).size();
            pages++;
        } while (client.midSession);
        Set<String> both = new HashSet<>(small);
        both.addAll(large);
        assertThat(delivered).as("each head once").isEqualTo(both.size());
        assertThat(client.store.keySet()).isEqualTo(both);

        // A few heads change; a delta in pages of two brings exactly those.
        List<String> changed = List.copyOf(small).subList(0, 5);
        RELAY.jdbi()
                .useHandle(h -> h.createUpdate(
                                "UPDATE artifact_heads SET modified_at = clock_timestamp() WHERE CAST(d AS text) IN (<ds>)")
                        .bindList("ds", changed)
                        .execute());
        Set<String> named = new HashSet<>();
        client.session(2).forEach(entry -> named.add(entry.get("d").asText()));
        assertThat(named).isEqualTo(Set.copyOf(changed));
        assertThat(client.store.keySet()).isEqualTo(both);
    }

    @Test
    void theBulkheadAndEachCallersShareHoldForThousandEntryPages() throws Exception {
        RelayClient shared = SHARED.client();
        NostrKeys other = NostrKeys.generate();
        NostrKeys third = NostrKeys.generate();
        String page = "[{\"artifact\":\"incremental\",\"#h\":[\"" + smallChannel + "\"],\"limit\":1000}]";
        try (Handle blocker = RELAY.jdbi().open()) {
            blocker.begin();
            // Held while the page's own query waits for the events it would send.
            blocker.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE");
            CompletableFuture<Reply> held = CompletableFuture.supplyAsync(() -> shared.query(READER, page));
            awaitPageQueriesWaiting(1);
            assertError(shared.query(READER, page), 503, "incremental_capacity");

            CompletableFuture<Reply> othersPage = CompletableFuture.supplyAsync(() -> shared.query(other, page));
            awaitPageQueriesWaiting(2);
            assertError(shared.query(third, page), 503, "incremental_capacity");

            blocker.rollback();
            Reply answered = held.get(60, TimeUnit.SECONDS);
            assertThat(answered.status()).isEqualTo(200);
            assertThat(answered.json().get("entries")).hasSize(1000);
            assertThat(othersPage.get(60, TimeUnit.SECONDS).status())
                    .as("another caller's read, of channels it may not read")
                    .isEqualTo(200);
        }
        assertThat(shared.query(READER, page).json().get("entries")).hasSize(1000);
    }

    @Test
    void theStatementBudgetHoldsForAThousandEntryPage() {
        String page = "[{\"artifact\":\"incremental\",\"#h\":[\"" + smallChannel + "\"],\"limit\":1000}]";
        try (Handle blocker = RELAY.jdbi().open()) {
            blocker.begin();
            blocker.execute("LOCK TABLE events IN ACCESS EXCLUSIVE MODE");
            assertError(TIGHT_BUDGET.client().query(READER, page), 503, "incremental_timeout");
            blocker.rollback();
        }
        assertThat(TIGHT_BUDGET.client().query(READER, page).json().get("entries"))
                .hasSize(1000);
    }

    private static void awaitPageQueriesWaiting(int queries) {
        await().atMost(Duration.ofSeconds(20))
                .until(() -> RELAY.jdbi()
                                .withHandle(handle -> handle.createQuery("""
                        SELECT count(*) FROM pg_stat_activity
                        WHERE wait_event_type = 'Lock' AND query LIKE '%head_event_id%' AND query NOT LIKE '%pg_stat_activity%'""")
                                        .mapTo(Integer.class)
                                        .one())
                        >= queries);
    }

    private static void assertError(Reply reply, int status, String code) {
        assertThat(reply.status()).as("%s", reply).isEqualTo(status);
        assertThat(reply.error()).isEqualTo(code);
    }
}
