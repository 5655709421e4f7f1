package chat.buzz.bench.scale;

import chat.buzz.bench.Events;
import chat.buzz.bench.Load;
import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Throughput of 1, 2, 3 ... relay instances sharing one PostgreSQL (docs/scaling.md): the reference
 * shape seeded once, then per instance count the same closed-loop mix spread over the first N instances
 * round-robin: writers (compare-and-set edits in their own private channels) and readers (members of the
 * shape following their delta cursor and making known-ID reads). Reports accepted writes/s, reads/s,
 * p50/p99 and the database's commits/s.
 *
 * Run by bench/instances.sh.
 */
@Command(name = "InstanceCurve", mixinStandardHelpOptions = true, description = "Throughput over 1, 2, 3 instances.")
public final class InstanceCurve implements Callable<Integer> {
    private static final int WRITERS = 4;
    private static final int READERS = 4;
    private static final int WARM_UP_SECONDS = 10;

    @CommandLine.Mixin
    ShapeOptions shape;

    @Option(names = "--seconds", defaultValue = "30", description = "measured seconds per instance count")
    int seconds;

    @Option(names = "--results", defaultValue = "bench/results", description = "where instances.json goes")
    Path resultsDir;

    @Option(names = "--counts", defaultValue = "1,2,3", split = ",", description = "instance counts to measure")
    List<Integer> counts;

    @Option(names = "--url", required = true, split = ",", description = "the instances' base URLs, on 127.0.0.1")
    List<String> baseUrls;

    public static void main(String[] args) {
        System.exit(new CommandLine(new InstanceCurve()).execute(args));
    }

    // The curve's points are maps for the JSON report; their numbers are boxed doubles and longs.
    @SuppressWarnings("FormatString")
    @Override
    public Integer call() throws Exception {
        for (String url : baseUrls) {
            if (!URI.create(url).getHost().equals("127.0.0.1")) {
                throw new IllegalArgumentException("the benchmark runs against 127.0.0.1 only, not " + url);
            }
        }
        Fixture fixture = shape.seed(NostrKeys.generate());
        List<Map<String, Object>> curve = new ArrayList<>();
        System.out.printf(
                "%9s %9s %9s %12s %12s %12s %12s %9s%n",
                "instances",
                "writes/s",
                "reads/s",
                "write p50/99",
                "delta p50/99",
                "known p50/99",
                "refused 503",
                "commits/s");
        for (int count : counts) {
            Map<String, Object> point = run(fixture, shape.jdbcUrl, baseUrls.subList(0, count), seconds);
            curve.add(point);
            Load.figure(
                    "%9d %9.0f %9.0f %5.1f/%6.1f %5.1f/%6.1f %5.1f/%6.1f %12d %9.0f",
                    count,
                    point.get("writes_per_s"),
                    point.get("reads_per_s"),
                    point.get("write_p50_ms"),
                    point.get("write_p99_ms"),
                    point.get("delta_p50_ms"),
                    point.get("delta_p99_ms"),
                    point.get("known_id_p50_ms"),
                    point.get("known_id_p99_ms"),
                    point.get("refused_503"),
                    point.get("commits_per_s"));
        }
        Files.createDirectories(resultsDir);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("artifacts", shape.artifacts);
        out.put("seconds", seconds);
        out.put("writers", WRITERS);
        out.put("readers", READERS);
        out.put("curve", curve);
        SignedCalls.JSON
                .writerWithDefaultPrettyPrinter()
                .writeValue(resultsDir.resolve("instances.json").toFile(), out);
        return 0;
    }

    private static Map<String, Object> run(Fixture fixture, String jdbcUrl, List<String> baseUrls, int seconds)
            throws Exception {
        List<SignedCalls> instances = baseUrls.stream().map(SignedCalls::new).toList();
        Timings writes = new Timings();
        Timings deltas = new Timings();
        Timings knownIds = new Timings();
        AtomicLong refused = new AtomicLong();
        long warmEnd = System.nanoTime() + WARM_UP_SECONDS * 1_000_000_000L;
        long end = warmEnd + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < WRITERS + READERS; t++) {
            SignedCalls calls = instances.get(t % instances.size());
            boolean writer = t < WRITERS;
            NostrKeys keys = writer ? NostrKeys.generate() : fixture.memberPool.get(t);
            Thread thread = new Thread(
                    () -> {
                        if (writer) {
                            writeLoop(calls, keys, warmEnd, end, writes, refused);
                        } else {
                            readLoop(calls, keys, fixture, warmEnd, end, deltas, knownIds, refused);
                        }
                    },
                    "instance-load-" + t);
            thread.start();
            threads.add(thread);
        }
        while (System.nanoTime() < warmEnd) {
            Thread.sleep(100); // the warm-up's length, not a race
        }
        long commitsBefore = commits(jdbcUrl);
        long measuredFrom = System.nanoTime();
        for (Thread thread : threads) {
            thread.join();
        }
        double elapsed = (System.nanoTime() - measuredFrom) / 1e9;
        long commitsAfter = commits(jdbcUrl);
        Map<String, Object> point = new LinkedHashMap<>();
        point.put("instances", baseUrls.size());
        point.put("writes_per_s", Timings.round(writes.count() / elapsed));
        point.put("reads_per_s", Timings.round((deltas.count() + knownIds.count()) / elapsed));
        point.put("write_p50_ms", Timings.round(writes.medianMillis()));
        point.put("write_p99_ms", Timings.round(writes.p99Millis()));
        point.put("delta_p50_ms", Timings.round(deltas.medianMillis()));
        point.put("delta_p99_ms", Timings.round(deltas.p99Millis()));
        point.put("known_id_p50_ms", Timings.round(knownIds.medianMillis()));
        point.put("known_id_p99_ms", Timings.round(knownIds.p99Millis()));
        point.put("refused_503", refused.get());
        point.put("commits_per_s", Timings.round((commitsAfter - commitsBefore) / elapsed));
        return point;
    }

    private static void writeLoop(
            SignedCalls calls, NostrKeys writer, long warmEnd, long end, Timings writes, AtomicLong refused) {
        UUID channel = new Writers(calls).ownChannel(writer);
        UUID d = UUID.randomUUID();
        String head = null;
        int n = 0;
        while (System.nanoTime() < end) {
            Event event = Events.revision(writer, d, channel, head, "curve " + n++, "curve body " + n);
            SignedCalls.Reply reply = calls.post(writer, "/events", event.toJson());
            if (reply.status() == 200) {
                head = event.id();
                record(writes, reply, warmEnd);
            } else {
                refused.incrementAndGet();
                d = UUID.randomUUID();
                head = null;
            }
        }
    }

    private static void readLoop(
            SignedCalls calls,
            NostrKeys reader,
            Fixture fixture,
            long warmEnd,
            long end,
            Timings deltas,
            Timings knownIds,
            AtomicLong refused) {
        Reads reads = new Reads(calls);
        Random random = new Random(reader.publicKeyHex().hashCode());
        String cursor = reads.session(reader, null).cursor();
        while (System.nanoTime() < end) {
            SignedCalls.Reply delta = calls.postHonouringRetryAfter(
                            reader,
                            "/query",
                            SignedCalls.query(
                                    "{\"artifact\":\"incremental\",\"limit\":100,\"since\":\"" + cursor + "\"}"),
                            refused)
                    .expectOk("delta read");
            cursor = delta.json().path("cursor").asText();
            record(deltas, delta, warmEnd);
            record(knownIds, reads.knownIds(reader, fixture.randomArtifactIds(random, 100)), warmEnd);
        }
    }

    private static void record(Timings timings, SignedCalls.Reply reply, long warmEnd) {
        if (System.nanoTime() >= warmEnd) {
            synchronized (timings) {
                timings.add(reply.nanos(), 0);
            }
        }
    }

    private static long commits(String jdbcUrl) throws Exception {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
