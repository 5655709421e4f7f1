package chat.buzz.bench.scale;

import chat.buzz.bench.Load;
import chat.buzz.bench.RelayOptions;
import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import chat.buzz.protocol.NostrKeys;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A quick look at the read path at the reference shape, not the official benchmark: seeds the packaged
 * relay's database ({@link Fixture}) and times signed HTTP reads of each kind (medians after three
 * warm-up calls). With {@code --explain-setup} it seeds and turns on auto_explain (ANALYZE, BUFFERS) for
 * the relay's database, with the server's log to a file; after bench/read-probe.sh restarts the relay (and
 * its embedded server), so that new connections load it, {@code --explain} makes one read of each kind,
 * whose plans the server logs, and turns it off.
 * Run by bench/read-probe.sh; docs/query-plans.md keeps the plans.
 */
@Command(name = "ReadPathProbe", mixinStandardHelpOptions = true, description = "Read-path timings or plans.")
public final class ReadPathProbe implements Callable<Integer> {
    private static final int REPEATS = 40;

    /** A write burst: {@code count} heads change now (the trigger stamps them), inside the next session's overlap. */
    private static final String TOUCH_HEADS = """
            UPDATE artifact_heads SET type = type
            WHERE community_id = ? AND d IN (SELECT d FROM artifact_heads ORDER BY d LIMIT ?)
            """;

    private static final String SOME_IDS = """
            SELECT CAST(d AS text) FROM artifact_heads WHERE NOT deleted ORDER BY md5(CAST(d AS text)) LIMIT 100
            """;

    private static final List<String> AUTO_EXPLAIN = List.of(
            "session_preload_libraries = 'auto_explain'",
            "auto_explain.log_min_duration = 0",
            "auto_explain.log_analyze = on",
            "auto_explain.log_buffers = on",
            "auto_explain.log_timing = on");

    /** The embedded server's own log goes nowhere the relay keeps; after the restart it goes to a file. */
    private static final List<String> LOG_TO_FILE = List.of(
            "ALTER SYSTEM SET logging_collector = on",
            "ALTER SYSTEM SET log_directory = 'log'",
            "ALTER SYSTEM SET log_filename = 'read-probe.log'");

    @CommandLine.Mixin
    RelayOptions relay;

    @CommandLine.Mixin
    ShapeOptions shape;

    @Option(
            names = "--reader-key",
            required = true,
            description = "the reader's secret key (hex), the same in both phases")
    String readerKey;

    @Option(names = "--explain-setup", description = "seed and turn auto_explain on; the relay restarts next")
    boolean explainSetup;

    @Option(names = "--explain", description = "one read of each kind for the plans, then auto_explain off")
    boolean explain;

    private Reads reads;
    private NostrKeys reader;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ReadPathProbe()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        relay.requireLoopback();
        reads = new Reads(new SignedCalls(relay.baseUrl));
        reader = NostrKeys.fromSecretHex(readerKey);
        if (explain) {
            explainEachRead();
            database("ALTER DATABASE %s RESET ALL");
            System.out.println("plans: in the server's log, data/postgres/log/read-probe.log, one per statement");
            return 0;
        }
        Fixture fixture = shape.seed(reader);
        if (explainSetup) {
            for (String setting : AUTO_EXPLAIN) {
                database("ALTER DATABASE %s SET " + setting);
            }
            for (String statement : LOG_TO_FILE) {
                database(statement);
            }
            return 0;
        }
        timings(fixture);
        return 0;
    }

    private void timings(Fixture fixture) throws SQLException {
        for (int i = 0; i < 3; i++) {
            reads.session(reader, null);
            reads.currentReload(reader, 1000);
        }
        double trivial = median(() -> reads.trivial(reader).nanos(), REPEATS);
        Load.figure("trivial signed request: median %.2f ms", trivial);
        double floor = median(() -> floorNanos(fixture), 5);
        Load.figure("SQL floor (one JDBC query, the reader's set's json): median %.1f ms", floor);
        Timings boots = new Timings();
        String cursor = null;
        for (int i = 0; i < 5; i++) {
            Reads.Session b = reads.session(reader, null);
            boots.add(b.nanos());
            cursor = b.cursor();
            Load.figure(
                    "bootstrap: %.1f ms, %d pages, %d entries, %.1f MB",
                    b.millis(), b.pages(), b.entries(), b.bytes() / 1e6);
        }
        Load.figure("bootstrap median %.1f ms = %.2f x floor", boots.medianMillis(), boots.medianMillis() / floor);
        Load.figure(
                "current reload (limit 1000 + offset): median %.1f ms",
                median(() -> reads.currentReload(reader, 1000).nanos(), 5));
        String quietCursor = cursor;
        double quiet = median(() -> reads.delta(reader, quietCursor).nanos(), REPEATS);
        Load.figure(
                "no-change delta right after the bootstrap: median %.2f ms (%.2f x trivial)", quiet, quiet / trivial);
        touchHeads(1000);
        String afterBurst = reads.session(reader, cursor).cursor();
        double busy = median(() -> reads.delta(reader, afterBurst).nanos(), REPEATS);
        Load.figure("no-change delta after a 1,000-write burst: median %.2f ms (%.2f x trivial)", busy, busy / trivial);
        List<String> ids = someIds();
        Load.figure(
                "known-ID read of 100: median %.2f ms",
                median(() -> reads.knownIds(reader, ids).nanos(), REPEATS));
    }

    /** A full bootstrap, a current reload, a no-change delta, a delta after a burst and after it, known IDs, a digest. */
    private void explainEachRead() throws SQLException {
        String cursor = reads.session(reader, null).cursor();
        reads.currentReload(reader, 1000);
        reads.delta(reader, cursor);
        touchHeads(1000);
        String afterBurst = reads.session(reader, cursor).cursor();
        reads.delta(reader, afterBurst);
        reads.knownIds(reader, someIds());
        reads.digest(reader).expectOk("digest read");
    }

    private long floorNanos(Fixture fixture) {
        try {
            return SqlFloor.measure(shape.jdbcUrl, reader.publicKeyHex(), fixture.communityId())[2];
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void touchHeads(int count) throws SQLException {
        try (Connection db = DriverManager.getConnection(shape.jdbcUrl);
                PreparedStatement touch = db.prepareStatement(TOUCH_HEADS)) {
            touch.setLong(1, Fixture.community(db));
            touch.setInt(2, count);
            touch.executeUpdate();
        }
    }

    private List<String> someIds() throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(shape.jdbcUrl);
                Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery(SOME_IDS)) {
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
        }
        return ids;
    }

    /** One statement about the relay's database, {@code %s} its name. */
    private void database(String statementTemplate) throws SQLException {
        try (Connection db = DriverManager.getConnection(shape.jdbcUrl);
                Statement statement = db.createStatement()) {
            statement.execute(statementTemplate.formatted(db.getCatalog()));
        }
    }

    /** Milliseconds: the median of {@code repeats} samples after three thrown away (plans, caches). */
    private static double median(LongSupplier nanos, int repeats) {
        long warmUp = 0;
        for (int i = 0; i < 3; i++) {
            warmUp += nanos.getAsLong();
        }
        if (warmUp < 0) {
            throw new IllegalStateException("the clock ran backwards during the warm-up");
        }
        return Timings.repeat(repeats, nanos).medianMillis();
    }
}
