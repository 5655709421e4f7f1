package chat.buzz.bench.scale;

import chat.buzz.bench.ProcessCpu;
import chat.buzz.protocol.NostrKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * CPU per read, relay and PostgreSQL apart: on a machine whose latencies swing by 2 × between runs,
 * the CPU a read costs is the steadier figure to compare two builds by. Seeds the reference shape
 * ({@link Fixture}), ages it past the overlap, then per read kind: {@code warmupSeconds} of that read
 * alone (the JIT needs about a minute), then {@code seconds} of it, one client, closed loop, with the
 * CPU time of the relay process and of every PostgreSQL process read from /proc before and after.
 *
 * <p>Usage: {@code ReadCost baseUrl jdbcUrl artifacts relayPid warmupSeconds seconds kinds}, kinds a
 * comma-separated list of trivial, known (known-ID 100), delta (no-change, after the overlap) and
 * bootstrap (a whole session of pages of 100).
 */
public final class ReadCost {
    private static final Random RANDOM = new Random(3);

    private final Reads reads;
    private final NostrKeys reader;
    private final List<String> seeded;
    private final String cursor;

    private ReadCost(Reads reads, NostrKeys reader, List<String> seeded, String cursor) {
        this.reads = reads;
        this.reader = reader;
        this.seeded = seeded;
        this.cursor = cursor;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: ReadCost baseUrl jdbcUrl artifacts relayPid warmupSeconds seconds kinds");
            System.exit(2);
        }
        String jdbcUrl = args[1];
        long relayPid = Long.parseLong(args[3]);
        int warmupSeconds = Integer.parseInt(args[4]);
        int seconds = Integer.parseInt(args[5]);
        Fixture fixture = new Fixture(Shape.of(Integer.parseInt(args[2])));
        fixture.seed(jdbcUrl);
        List<String> seeded = seededIds(jdbcUrl);
        Fixture.ageEverything(jdbcUrl);
        Reads reads = new Reads(new SignedCalls(args[0]));
        ReadCost cost = new ReadCost(
                reads,
                fixture.reader,
                seeded,
                reads.session(fixture.reader, null).cursor());
        System.out.printf(
                "%-10s %8s %10s %10s %14s %17s%n",
                "read", "reads", "median ms", "p90 ms", "relay CPU ms", "PostgreSQL CPU ms");
        for (String kind : args[6].split(",")) {
            Runnable read = cost.read(kind);
            run(read, warmupSeconds);
            long[] before = cpuTicks(relayPid);
            List<Long> nanos = run(read, seconds);
            long[] after = cpuTicks(relayPid);
            Collections.sort(nanos);
            double perTick = 1000.0 / ProcessCpu.TICKS_PER_SECOND / nanos.size();
            System.out.printf(
                    "%-10s %8d %10.2f %10.2f %14.3f %17.3f%n",
                    kind,
                    nanos.size(),
                    nanos.get(nanos.size() / 2) / 1e6,
                    nanos.get(nanos.size() * 9 / 10) / 1e6,
                    (after[0] - before[0]) * perTick,
                    (after[1] - before[1]) * perTick);
        }
        System.exit(0);
    }

    private Runnable read(String kind) {
        return switch (kind) {
            case "trivial" -> () -> reads.trivial(reader);
            case "known" -> () -> reads.knownIds(reader, randomSeeded(100));
            case "delta" -> () -> reads.delta(reader, cursor);
            case "bootstrap" -> () -> reads.session(reader, null);
            default -> throw new IllegalArgumentException("unknown read kind " + kind);
        };
    }

    private List<String> randomSeeded(int count) {
        List<String> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(seeded.get(RANDOM.nextInt(seeded.size())));
        }
        return ids;
    }

    /** @return each read's nanoseconds */
    private static List<Long> run(Runnable read, int seconds) {
        List<Long> nanos = new ArrayList<>();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            long begin = System.nanoTime();
            read.run();
            nanos.add(System.nanoTime() - begin);
        }
        return nanos;
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

    /** {relay, all PostgreSQL processes} user + system CPU in clock ticks. */
    private static long[] cpuTicks(long relayPid) throws IOException {
        long relay = 0;
        long postgres = 0;
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : (Iterable<Path>) processes::iterator) {
                String name = process.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    if (Long.parseLong(name) == relayPid) {
                        relay += ProcessCpu.ticks(process);
                    } else if (Files.readString(process.resolve("comm")).startsWith("postgres")) {
                        postgres += ProcessCpu.ticks(process);
                    }
                } catch (IOException | RuntimeException e) {
                    // The process ended between the listing and the read.
                }
            }
        }
        return new long[] {relay, postgres};
    }
}
