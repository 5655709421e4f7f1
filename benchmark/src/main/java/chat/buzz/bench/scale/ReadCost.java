package chat.buzz.bench.scale;

import chat.buzz.bench.Load;
import chat.buzz.bench.ProcessCpu;
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
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * CPU per read, relay and PostgreSQL apart: on a machine whose latencies swing by 2 × between runs,
 * the CPU a read costs is the steadier figure to compare two builds by. Seeds the reference shape
 * ({@link Fixture}), ages it past the overlap, then per read kind: {@code --warmup} seconds of that read
 * alone (the JIT needs about a minute), then {@code --seconds} of it, one client, closed loop, with the
 * CPU time of the relay process and of the relay's PostgreSQL server (its postmaster and backends)
 * read from /proc before and after. Run by bench/read-cost.sh.
 */
@Command(name = "ReadCost", mixinStandardHelpOptions = true, description = "CPU per read, relay and PostgreSQL.")
public final class ReadCost implements Callable<Integer> {
    private static final Random RANDOM = new Random(3);

    @CommandLine.Mixin
    RelayOptions relay;

    @CommandLine.Mixin
    ShapeOptions shape;

    @Option(names = "--warmup", defaultValue = "60", description = "warm-up seconds per read kind")
    int warmupSeconds;

    @Option(names = "--seconds", defaultValue = "20", description = "measured seconds per read kind")
    int seconds;

    @Option(
            names = "--kinds",
            defaultValue = "trivial,known,delta,bootstrap",
            split = ",",
            description = "nip11 (the unsigned information GET), trivial, known (known-ID 100), delta (no-change,"
                    + " after the overlap), burstdelta (no-change, right after 100 heads changed), bootstrap (pages"
                    + " of 100), bootstrap1000 (pages of 1,000)")
    List<String> kinds;

    @Option(
            names = "--redis-pid",
            description = "the replay guard's redis-server, when the relay keeps the guard in Redis: its CPU per"
                    + " read is reported too")
    long redisPid;

    private Reads reads;
    private NostrKeys reader;
    private List<String> seeded;
    private String cursor;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ReadCost()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        relay.requireLoopback();
        if (kinds.contains("burstdelta") && !kinds.get(kinds.size() - 1).equals("burstdelta")) {
            // Its burst lies in every later session's overlap: a later kind would measure it too.
            throw new CommandLine.ParameterException(new CommandLine(this), "burstdelta must be the last of --kinds");
        }
        Fixture fixture = shape.seed(NostrKeys.generate());
        seeded = seededIds(shape.jdbcUrl);
        Aging.ageEverything(shape.jdbcUrl);
        reads = new Reads(new SignedCalls(relay.baseUrl));
        reader = fixture.reader;
        cursor = reads.session(reader, null).cursor();
        long postmaster = ProcessCpu.postmaster(shape.jdbcUrl);
        // The relay's PostgreSQL is its primary: in local mode there is no other server, and the replay
        // guard's write (when the guard is there) is the primary's work per signed read.
        System.out.printf(
                "%-10s %8s %10s %10s %14s %17s%s%n",
                "read",
                "reads",
                "median ms",
                "p90 ms",
                "relay CPU ms",
                "PostgreSQL CPU ms",
                redisPid == 0 ? "" : String.format(Locale.ROOT, " %13s", "Redis CPU ms"));
        for (String kind : kinds) {
            Runnable read = read(kind);
            run(read, warmupSeconds);
            long relayBefore = ProcessCpu.ticks(relay.relayPid);
            long postgresBefore = ProcessCpu.treeTicks(postmaster);
            long redisBefore = redisPid == 0 ? 0 : ProcessCpu.ticks(redisPid);
            Timings timings = run(read, seconds);
            long relayAfter = ProcessCpu.ticks(relay.relayPid);
            long postgresAfter = ProcessCpu.treeTicks(postmaster);
            long redisAfter = redisPid == 0 ? 0 : ProcessCpu.ticks(redisPid);
            double perTick = 1000.0 / ProcessCpu.TICKS_PER_SECOND / timings.count();
            Load.figure(
                    "%-10s %8d %10.2f %10.2f %14.3f %17.3f%s",
                    kind,
                    timings.count(),
                    timings.medianMillis(),
                    timings.percentileMillis(0.9),
                    (relayAfter - relayBefore) * perTick,
                    (postgresAfter - postgresBefore) * perTick,
                    redisPid == 0 ? "" : String.format(Locale.ROOT, " %13.3f", (redisAfter - redisBefore) * perTick));
        }
        return 0;
    }

    private Runnable read(String kind) {
        return switch (kind) {
            case "nip11" -> () -> reads.information();
            case "trivial" -> () -> reads.trivial(reader);
            case "known" -> () -> reads.knownIds(reader, randomSeeded(100));
            case "delta" -> () -> reads.delta(reader, cursor);
            case "burstdelta" -> {
                String afterBurst = burstThenCatchUp(BURST);
                yield () -> reads.delta(reader, afterBurst);
            }
            case "bootstrap" -> () -> reads.session(reader, null);
            case "bootstrap1000" -> () -> reads.session(reader, null, 1_000, page -> {});
            default -> throw new IllegalArgumentException("unknown read kind " + kind);
        };
    }

    /** As many heads as the scale benchmark's burst of edits before its no-change deltas. */
    private static final int BURST = 100;

    /**
     * {@code count} heads change now (the stamping trigger moves them into every later session's overlap),
     * and a session from the cursor takes them in: each delta from its cursor then re-reads a window
     * holding those rows, already judged, for as long as they are younger than the overlap (120 s, more
     * than a kind's warm-up and measurement at their defaults).
     */
    private String burstThenCatchUp(int count) {
        try (Connection db = DriverManager.getConnection(shape.jdbcUrl);
                PreparedStatement touch = db.prepareStatement(TOUCH_HEADS)) {
            touch.setInt(1, count);
            touch.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the burst of head changes failed", e);
        }
        return reads.session(reader, cursor).cursor();
    }

    private static final String TOUCH_HEADS = """
            UPDATE artifact_heads SET type = type
            WHERE d IN (SELECT d FROM artifact_heads WHERE NOT deleted ORDER BY md5(CAST(d AS text)) LIMIT ?)
            """;

    private List<String> randomSeeded(int count) {
        List<String> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(seeded.get(RANDOM.nextInt(seeded.size())));
        }
        return ids;
    }

    private static Timings run(Runnable read, int seconds) {
        Timings timings = new Timings();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            long begin = System.nanoTime();
            read.run();
            timings.add(System.nanoTime() - begin);
        }
        return timings;
    }

    private static List<String> seededIds(String jdbcUrl) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery("SELECT d FROM artifact_heads WHERE NOT deleted")) {
            while (rows.next()) {
                ids.add(rows.getObject(1, UUID.class).toString());
            }
        }
        return ids;
    }
}
