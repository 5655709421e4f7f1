package chat.buzz.relay.incremental;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * A quick look at the read path at the reference shape (issue 11), not a test: seeds a relay's database
 * directly with SQL (channels, memberships, heads of ~4,900-byte events; signatures are not checked on
 * reads) and times signed HTTP reads against the real relay. Run with {@code bench/read-probe.sh}.
 * With {@code explain} as the second argument it instead logs each read's plan to the PostgreSQL server log
 * (auto_explain with ANALYZE and BUFFERS, for this database only) and leaves the database behind.
 */
public final class ReadPathProbe {
    private static final int REPEATS = 40;

    /** The tags of a seeded revision, a format() template: the artifact id, then the channel, fill the %s. */
    private static final String SEED_TAGS = "["
            + String.join(
                    ",",
                    tag(Tags.ARTIFACT_FLAG, "1"),
                    tag(Tags.ARTIFACT_ID, "%s"),
                    tag(Tags.CHANNEL, "%s"),
                    tag(Tags.ARTIFACT_TYPE, "task.v1"),
                    tag(Tags.OPERATION, "create"))
            + "]";

    private static final String SEED_CHANNELS = """
            INSERT INTO channels (id, community_id, name, visibility, created_by)
            SELECT CAST(lpad(to_hex(g), 32, '0') AS uuid), :community, 'channel ' || g,
                   CASE WHEN g % 2 = 0 THEN 'private' ELSE 'open' END, :reader
            FROM generate_series(1, :channels) g
            """;

    /** The reader in every channel, and others until there are :members memberships in all. */
    private static final String SEED_MEMBERS = """
            INSERT INTO channel_members (channel_id, pubkey, role)
            SELECT CAST(lpad(to_hex(c), 32, '0') AS uuid), :reader, 'member' FROM generate_series(1, :channels) c
            UNION ALL
            SELECT CAST(lpad(to_hex(1 + g % :channels), 32, '0') AS uuid),
                   encode(sha256(CAST('member ' || (g / :channels) AS bytea)), 'hex'), 'member'
            FROM generate_series(0, :members - :channels - 1) g
            """;

    private static final String SEED_EVENTS = """
            INSERT INTO events (id, community_id, pubkey, kind, created_at, tags, json)
            SELECT encode(sha256(CAST('artifact ' || g AS bytea)), 'hex'), :community, :reader, 45010, 1764547200,
                   CAST(format(:seedTags, lpad(to_hex(g), 32, '0'), lpad(to_hex(1 + (g - 1) / 5), 32, '0')) AS jsonb),
                   format('{"id":"%s","pubkey":"%s","created_at":1764547200,"kind":45010,"tags":' || :seedTags
                          || ',"content":"%s","sig":"%s"}',
                          encode(sha256(CAST('artifact ' || g AS bytea)), 'hex'), :reader,
                          CAST(CAST(lpad(to_hex(g), 32, '0') AS uuid) AS text),
                          CAST(CAST(lpad(to_hex(1 + (g - 1) / 5), 32, '0') AS uuid) AS text),
                          (SELECT string_agg(md5(g || ':' || i), '') FROM generate_series(1, 140) i), repeat('0', 128))
            FROM generate_series(1, :artifacts) g
            """;

    private static final String SEED_REVISIONS = """
            INSERT INTO artifact_revisions (event_id, community_id, d, channel_id, kind, op, author)
            SELECT encode(sha256(CAST('artifact ' || g AS bytea)), 'hex'), :community, CAST(lpad(to_hex(g), 32, '0') AS uuid),
                   CAST(lpad(to_hex(1 + (g - 1) / 5), 32, '0') AS uuid), 45010, 'create', :reader
            FROM generate_series(1, :artifacts) g
            """;

    private static final String SEED_HEADS = """
            INSERT INTO artifact_heads (community_id, d, channel_id, head_event_id, type)
            SELECT community_id, d, channel_id, event_id, 'task.v1' FROM artifact_revisions
            WHERE community_id = :community ORDER BY accepted_at
            """;

    /** A write burst: :count heads change now (the trigger stamps them), inside the next session's overlap. */
    private static final String TOUCH_HEADS = """
            UPDATE artifact_heads SET type = type
            WHERE community_id = :community AND d IN (SELECT d FROM artifact_heads ORDER BY d LIMIT :count)
            """;

    private static final String FLOOR = """
            SELECT e.json FROM artifact_heads a JOIN events e ON e.id = a.head_event_id
            WHERE a.community_id = %d AND NOT a.deleted
            """;

    private ReadPathProbe() {}

    public static void main(String[] args) throws Exception {
        int artifacts = args.length > 0 ? Integer.parseInt(args[0]) : 10_050;
        boolean explain = args.length > 1 && args[1].equals("explain");
        int channels = artifacts / 5;
        int members = (int) Math.round(artifacts * 60_002.0 / 10_050);
        TestRelay relay = TestRelay.create(
                ConfigOverride.config("gates.incremental", "true"),
                ConfigOverride.config("incremental.overlapSeconds", "120"),
                ConfigOverride.config("incremental.maxConcurrentReads", "16"));
        relay.start();
        try {
            NostrKeys reader = NostrKeys.generate();
            Jdbi jdbi = relay.jdbi();
            long community = seed(jdbi, reader.publicKeyHex(), artifacts, channels, members);
            RelayClient client = relay.client();
            System.out.printf(
                    "probe: %,d artifacts in %,d channels, %,d memberships, database %s%n",
                    artifacts, channels, members, relay.databaseUrl());
            if (explain) {
                explainEachRead(relay, jdbi, reader, community);
            } else {
                new Run(client, reader, jdbi, community).all();
            }
        } finally {
            relay.stop();
            if (!explain) {
                chat.buzz.relay.testing.TestDatabases.drop(relay.databaseUrl());
            }
        }
    }

    /** The relay restarts so that its new connections load auto_explain; then one read of each kind. */
    private static void explainEachRead(TestRelay relay, Jdbi jdbi, NostrKeys reader, long community) throws Exception {
        String database = jdbi.withHandle(h ->
                h.createQuery("SELECT current_database()").mapTo(String.class).one());
        jdbi.useHandle(h -> {
            for (String setting : List.of(
                    "session_preload_libraries = 'auto_explain'",
                    "auto_explain.log_min_duration = 0",
                    "auto_explain.log_analyze = on",
                    "auto_explain.log_buffers = on",
                    "auto_explain.log_timing = on")) {
                h.execute("ALTER DATABASE " + database + " SET " + setting);
            }
        });
        relay.stop();
        relay.start();
        Run run = new Run(relay.client(), reader, jdbi, community);
        String cursor = run.bootstrap().cursor();
        run.currentReload();
        run.delta(cursor);
        jdbi.useHandle(h -> h.createUpdate(TOUCH_HEADS)
                .bind("community", community)
                .bind("count", 1000)
                .execute());
        String afterBurst = run.deltaCursor(cursor);
        run.delta(afterBurst);
        run.knownIds(jdbi.withHandle(h -> h.createQuery("SELECT CAST(d AS text) FROM artifact_heads LIMIT 100")
                .mapTo(String.class)
                .list()));
        check(relay.client().query(reader, "[{\"artifact\":\"incremental\",\"digest\":true}]"));
        jdbi.useHandle(h -> h.execute("ALTER DATABASE " + database + " RESET ALL"));
        System.out.println("plans: grep the server log for @" + database);
    }

    private static long seed(Jdbi jdbi, String reader, int artifacts, int channels, int members) {
        long started = System.nanoTime();
        long community = jdbi.withHandle(handle -> {
            long id = handle.createQuery("SELECT id FROM communities WHERE name = 'test'")
                    .mapTo(Long.class)
                    .one();
            handle.useTransaction(tx -> {
                execute(tx, SEED_CHANNELS, id, reader, artifacts, channels, members);
                execute(tx, SEED_MEMBERS, id, reader, artifacts, channels, members);
                execute(tx, SEED_EVENTS, id, reader, artifacts, channels, members);
                execute(tx, SEED_REVISIONS, id, reader, artifacts, channels, members);
                execute(tx, SEED_HEADS, id, reader, artifacts, channels, members);
            });
            handle.execute("VACUUM ANALYZE");
            return id;
        });
        System.out.printf("seeded in %d ms%n", (System.nanoTime() - started) / 1_000_000);
        return community;
    }

    private static void execute(
            Handle handle, String sql, long community, String reader, int artifacts, int channels, int members) {
        handle.createUpdate(sql)
                .bind("community", community)
                .bind("reader", reader)
                .bind("artifacts", artifacts)
                .bind("channels", channels)
                .bind("members", members)
                .bind("seedTags", SEED_TAGS)
                .execute();
    }

    private static String tag(String name, String value) {
        return "[\"" + name + "\",\"" + value + "\"]";
    }

    private record Run(RelayClient client, NostrKeys reader, Jdbi jdbi, long community) {
        void all() {
            for (int i = 0; i < 3; i++) {
                bootstrap();
                currentReload();
            }
            double trivial = median(this::trivial);
            System.out.printf("trivial signed request: median %.2f ms%n", trivial);
            double floor = median(this::floorMillis, 5);
            System.out.printf("SQL floor (one JDBC query, all json): median %.1f ms%n", floor);
            List<Double> boots = new ArrayList<>();
            String cursor = null;
            for (int i = 0; i < 5; i++) {
                Bootstrap b = bootstrap();
                boots.add(b.millis);
                cursor = b.cursor;
                System.out.printf(
                        "bootstrap: %.1f ms, %d pages, %d entries, %.1f MB%n",
                        b.millis, b.pages, b.entries, b.bytes / 1e6);
            }
            double boot = medianOf(boots);
            System.out.printf("bootstrap median %.1f ms = %.2f x floor%n", boot, boot / floor);
            System.out.printf("current reload (limit 1000 + offset): median %.1f ms%n", median(this::currentReload, 5));
            String finalCursor = cursor;
            double quiet = median(() -> delta(finalCursor));
            System.out.printf(
                    "no-change delta right after the bootstrap (the seeded writes still in the overlap): median %.2f ms (%.2f x trivial)%n",
                    quiet, quiet / trivial);
            jdbi.useHandle(h -> h.createUpdate(TOUCH_HEADS)
                    .bind("community", community)
                    .bind("count", 1000)
                    .execute());
            String afterBurst = deltaCursor(finalCursor);
            double busy = median(() -> delta(afterBurst));
            System.out.printf(
                    "no-change delta after a 1,000-write burst: median %.2f ms (%.2f x trivial)%n",
                    busy, busy / trivial);
            List<String> ids = jdbi.withHandle(h -> h.createQuery(
                            "SELECT CAST(d AS text) FROM artifact_heads ORDER BY md5(CAST(d AS text)) LIMIT 100")
                    .mapTo(String.class)
                    .list());
            double known = median(() -> knownIds(ids));
            System.out.printf("known-ID read of 100: median %.2f ms%n", known);
        }

        double trivial() {
            long t = System.nanoTime();
            check(client.query(reader, "[{\"artifact\":\"current\",\"#d\":[\"" + UUID.randomUUID() + "\"]}]"));
            return millisSince(t);
        }

        double floorMillis() {
            try (Handle h = jdbi.open()) {
                long t = System.nanoTime();
                long bytes = 0;
                Connection connection = h.getConnection();
                try (Statement statement = connection.createStatement();
                        ResultSet rows = statement.executeQuery(FLOOR.formatted(community))) {
                    while (rows.next()) {
                        bytes += rows.getString(1).getBytes(StandardCharsets.UTF_8).length;
                    }
                }
                if (bytes == 0) {
                    throw new IllegalStateException("no rows");
                }
                return millisSince(t);
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
        }

        Bootstrap bootstrap() {
            long t = System.nanoTime();
            String cursor = null;
            int pages = 0;
            int entries = 0;
            long bytes = 0;
            boolean more = true;
            while (more) {
                Reply reply = check(client.query(reader, page(cursor)));
                JsonNode json = reply.json();
                pages++;
                entries += json.path("entries").size();
                bytes += reply.body().length();
                cursor = json.path("cursor").textValue();
                more = json.path("more").asBoolean();
            }
            return new Bootstrap(millisSince(t), pages, entries, bytes, cursor);
        }

        double currentReload() {
            long t = System.nanoTime();
            for (int offset = 0; offset <= 10_000; offset += 1000) {
                Reply reply = check(
                        client.query(reader, "[{\"artifact\":\"current\",\"limit\":1000,\"offset\":" + offset + "}]"));
                if (reply.json().size() < 1000) {
                    break;
                }
            }
            return millisSince(t);
        }

        double delta(String cursor) {
            long t = System.nanoTime();
            JsonNode json = check(client.query(reader, page(cursor))).json();
            double millis = millisSince(t);
            if (json.path("entries").size() != 0 || json.path("more").asBoolean()) {
                throw new IllegalStateException(
                        "a no-change delta answered " + json.path("entries").size() + " entries");
            }
            return millis;
        }

        /** Follows a delta session to its end and returns its final cursor. */
        String deltaCursor(String cursor) {
            boolean more = true;
            int entries = 0;
            while (more) {
                JsonNode json = check(client.query(reader, page(cursor))).json();
                entries += json.path("entries").size();
                cursor = json.path("cursor").textValue();
                more = json.path("more").asBoolean();
            }
            System.out.printf("delta after the burst: %d entries%n", entries);
            return cursor;
        }

        double knownIds(List<String> ids) {
            long t = System.nanoTime();
            JsonNode json = check(client.query(
                            reader, "[{\"artifact\":\"incremental\",\"#d\":[\"" + String.join("\",\"", ids) + "\"]}]"))
                    .json();
            double millis = millisSince(t);
            if (json.path("entries").size() != ids.size()) {
                throw new IllegalStateException("known-ID read answered " + json);
            }
            return millis;
        }

        private static String page(String cursor) {
            return cursor == null
                    ? "[{\"artifact\":\"incremental\"}]"
                    : "[{\"artifact\":\"incremental\",\"since\":\"" + cursor + "\"}]";
        }
    }

    private static Reply check(Reply reply) {
        if (reply.status() != 200) {
            throw new IllegalStateException("relay answered " + reply);
        }
        return reply;
    }

    private record Bootstrap(double millis, int pages, int entries, long bytes, String cursor) {}

    private static double median(Supplier<Double> sample) {
        return median(sample, REPEATS);
    }

    private static double median(Supplier<Double> sample, int repeats) {
        // Three warm-up samples, thrown away: the first reads of a statement plan and fill caches.
        double warmUp = 0;
        for (int i = 0; i < 3; i++) {
            warmUp += sample.get();
        }
        if (Double.isNaN(warmUp)) {
            throw new IllegalStateException("a warm-up sample was not a number");
        }
        List<Double> samples = new ArrayList<>();
        for (int i = 0; i < repeats; i++) {
            samples.add(sample.get());
        }
        return medianOf(samples);
    }

    private static double medianOf(List<Double> samples) {
        double[] sorted = samples.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static double millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1e6;
    }
}
