package chat.buzz.bench.scale;

import chat.buzz.bench.Load;
import chat.buzz.bench.ProcessCpu;
import chat.buzz.bench.SignedCalls;
import chat.buzz.protocol.NostrKeys;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What a hot standby takes off the primary (issue 36, docs/scaling.md "Reads on hot standbys"): two relays
 * on one database, one without replicas (phase A: the primary serves every read) and one with the standby
 * in {@code database.replicas} (phase B: the standby serves them), the reference shape seeded once and
 * aged past the overlap. Per read kind (no-change deltas of followers, bootstrap pages of the reader in
 * every channel) and phase, the same closed-loop readers run for the same time, after a warm-up of that
 * relay and kind, in alternating rounds; the CPU of the primary's PostgreSQL (its postmaster and every
 * child), of the standby's, of the relay under test and of this load generator is read from /proc around
 * each window, and the relay's own counters ({@code GET /api/standbys}, {@code reads}) say where its reads
 * ran. Then a window with no reads gives the background both servers spend anyway, and a write burst on
 * the relay with the standby gives the standby's replay lag, sampled on the servers every 100 ms and as
 * the relay saw it. Run by bench/standby.sh.
 */
@Command(
        name = "StandbyOffload",
        mixinStandardHelpOptions = true,
        description = "Primary CPU per read a standby serves.")
public final class StandbyOffload implements Callable<Integer> {
    /** The primary's position: what it has made durable, as a number. */
    private static final String PRIMARY_POSITION =
            "SELECT CAST(pg_wal_lsn_diff(pg_current_wal_flush_lsn(), '0/0') AS bigint)";

    /** The standby's replayed position, and the age of the last transaction it replayed. */
    private static final String STANDBY_POSITION =
            "SELECT CAST(pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0') AS bigint),"
                    + " CAST(extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000 AS bigint)";

    @CommandLine.Mixin
    ShapeOptions shape;

    @Option(names = "--standby-jdbc", required = true, description = "JDBC URL of the same database on the standby")
    String standbyJdbc;

    @Option(names = "--primary-relay", required = true, description = "base URL of the relay without replicas")
    String primaryRelay;

    @Option(names = "--primary-relay-pid", required = true, description = "its process id")
    long primaryRelayPid;

    @Option(names = "--primary-admin", required = true, description = "its admin base URL")
    String primaryAdmin;

    @Option(names = "--standby-relay", required = true, description = "base URL of the relay reading from the standby")
    String standbyRelay;

    @Option(names = "--standby-relay-pid", required = true, description = "its process id")
    long standbyRelayPid;

    @Option(names = "--standby-admin", required = true, description = "its admin base URL")
    String standbyAdmin;

    @Option(names = "--admin-token", required = true, description = "the operator token of both relays")
    String adminToken;

    @Option(names = "--warmup", defaultValue = "60", description = "warm-up seconds per relay and read kind")
    int warmupSeconds;

    @Option(names = "--seconds", defaultValue = "30", description = "measured seconds per relay, read kind and round")
    int seconds;

    @Option(names = "--rounds", defaultValue = "2", description = "rounds of A then B; figures are sums over them")
    int rounds;

    @Option(
            names = "--delta-readers",
            defaultValue = "2",
            description = "delta followers, each its own member (at most the incremental bulkhead, 4)")
    int deltaReaders;

    @Option(
            names = "--bootstrap-readers",
            defaultValue = "2",
            description = "bootstrap readers, all the reader in every channel (at most its per-caller limit, 2)")
    int bootstrapReaders;

    @Option(names = "--idle-seconds", defaultValue = "10", description = "seconds of no reads, for the background")
    int idleSeconds;

    @Option(names = "--burst-seconds", defaultValue = "20", description = "seconds of the write burst")
    int burstSeconds;

    @Option(names = "--burst-writers", defaultValue = "4", description = "closed-loop writers of the burst")
    int burstWriters;

    private final HttpClient admin =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Fixture fixture;
    private long primaryPostmaster;
    private long standbyPostmaster;
    /** How {@link ProcessCpu#treeTicksByName} names the backends of the benchmark's database. */
    private String databaseBackends;
    /** Each delta follower's cursor on each relay, kept from window to window: followers keep following. */
    private final Map<String, String> cursors = new ConcurrentHashMap<>();

    public static void main(String[] args) {
        System.exit(new CommandLine(new StandbyOffload()).execute(args));
    }

    private enum Kind {
        DELTA,
        BOOTSTRAP
    }

    /** A relay under test: A has no replicas, B reads from the standby. */
    private record Phase(String name, String url, long relayPid, String adminUrl) {}

    /** Where a relay's reads ran so far ({@code reads} of {@code GET /api/standbys}). */
    private record Placed(long standby, long primary, long primaryAfterStandby) {
        Placed minus(Placed earlier) {
            return new Placed(
                    standby - earlier.standby,
                    primary - earlier.primary,
                    primaryAfterStandby - earlier.primaryAfterStandby);
        }

        Placed plus(Placed other) {
            return new Placed(
                    standby + other.standby, primary + other.primary, primaryAfterStandby + other.primaryAfterStandby);
        }
    }

    /** One kind in one phase, summed over its rounds; CPU in clock ticks. */
    private static final class Cost {
        long reads;
        long refused;
        double seconds;
        long primary;
        /** The primary's backends connected to the benchmark's database only. */
        long primaryDatabase;

        long standby;
        long relay;
        long generator;
        Placed placed = new Placed(0, 0, 0);

        double perRead(long ticks) {
            return ticks * 1000.0 / ProcessCpu.TICKS_PER_SECOND / Math.max(reads, 1);
        }
    }

    @Override
    public Integer call() throws Exception {
        for (String url : List.of(primaryRelay, primaryAdmin, standbyRelay, standbyAdmin)) {
            if (!"127.0.0.1".equals(URI.create(url).getHost())) {
                throw new IllegalArgumentException("the benchmark runs against 127.0.0.1 only, not " + url);
            }
        }
        if (deltaReaders < 1 || deltaReaders > 4 || bootstrapReaders < 1 || bootstrapReaders > 2) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this),
                    "1 to 4 delta readers and 1 to 2 bootstrap readers: more would be refused 503");
        }
        fixture = shape.seed(NostrKeys.generate());
        Aging.ageEverything(shape.jdbcUrl);
        primaryPostmaster = ProcessCpu.postmaster(shape.jdbcUrl);
        try (Connection db = DriverManager.getConnection(shape.jdbcUrl);
                Statement statement = db.createStatement();
                ResultSet row = statement.executeQuery("SELECT current_database()")) {
            row.next();
            databaseBackends = " " + row.getString(1).replaceAll("\\d+", "#");
        }
        standbyPostmaster = ProcessCpu.postmaster(standbyJdbc);
        if (primaryPostmaster == standbyPostmaster) {
            throw new IllegalArgumentException("--jdbc and --standby-jdbc name the same server");
        }
        Load.figure("standby caught up with the seeded shape %d ms after the seed", caughtUp(120));
        awaitServing(standbyAdmin, 60);

        Phase a = new Phase("A primary serves", primaryRelay, primaryRelayPid, primaryAdmin);
        Phase b = new Phase("B standby serves", standbyRelay, standbyRelayPid, standbyAdmin);
        Map<String, Cost> costs = new HashMap<>();
        for (Phase phase : List.of(a, b)) {
            for (Kind kind : Kind.values()) {
                read(phase, kind, warmupSeconds);
                Load.figure(
                        "warmed up %s, %s reads, for %d s",
                        phase.name, kind.name().toLowerCase(java.util.Locale.ROOT), warmupSeconds);
            }
        }
        for (int round = 1; round <= rounds; round++) {
            for (Phase phase : List.of(a, b)) {
                for (Kind kind : Kind.values()) {
                    measure(phase, kind, costs.computeIfAbsent(phase.name + kind, k -> new Cost()));
                }
            }
        }
        long[] idle = idle();
        report(a, b, costs, idle);
        burst();
        return 0;
    }

    /** The figures of every kind: both phases side by side, then the goal's ratio. */
    private void report(Phase a, Phase b, Map<String, Cost> costs, long[] idle) {
        double primaryIdle = idle[0] * 1000.0 / ProcessCpu.TICKS_PER_SECOND / idleSeconds;
        double standbyIdle = idle[1] * 1000.0 / ProcessCpu.TICKS_PER_SECOND / idleSeconds;
        System.out.printf(
                "%-9s %-16s %8s %8s %14s %14s %14s %12s %12s %24s %7s%n",
                "read",
                "phase",
                "reads",
                "reads/s",
                "primary ms/rd",
                "its db ms/rd",
                "standby ms/rd",
                "relay ms/rd",
                "loadgen ms/rd",
                "ran on standby/prim/retry",
                "refused");
        for (Kind kind : Kind.values()) {
            for (Phase phase : List.of(a, b)) {
                Cost cost = costs.get(phase.name + kind);
                Load.figure(
                        "%-9s %-16s %8d %8.1f %14.3f %14.3f %14.3f %12.3f %12.3f %24s %7d",
                        kind.name().toLowerCase(java.util.Locale.ROOT),
                        phase.name,
                        cost.reads,
                        cost.reads / cost.seconds,
                        cost.perRead(cost.primary),
                        cost.perRead(cost.primaryDatabase),
                        cost.perRead(cost.standby),
                        cost.perRead(cost.relay),
                        cost.perRead(cost.generator),
                        cost.placed.standby + "/" + cost.placed.primary + "/" + cost.placed.primaryAfterStandby,
                        cost.refused);
            }
        }
        Load.figure(
                "background with no reads (both relays idle, %d s): primary %.1f ms CPU/s, standby %.1f ms CPU/s",
                idleSeconds, primaryIdle, standbyIdle);
        for (Kind kind : Kind.values()) {
            Cost onPrimary = costs.get(a.name + kind);
            Cost onStandby = costs.get(b.name + kind);
            double ratio = onStandby.perRead(onStandby.primary) / onPrimary.perRead(onPrimary.primary);
            double netA = onPrimary.perRead(onPrimary.primary)
                    - primaryIdle * onPrimary.seconds / Math.max(onPrimary.reads, 1);
            double netB = onStandby.perRead(onStandby.primary)
                    - primaryIdle * onStandby.seconds / Math.max(onStandby.reads, 1);
            Load.figure(
                    "%s: the primary's CPU per read the standby serves against one it serves itself: %.3f / %.3f ms ="
                            + " %.3f (goal <= 0.25: %s); less the idle background: %.3f / %.3f ms = %.3f; the backends"
                            + " of this database alone: %.3f / %.3f ms = %.3f",
                    kind.name().toLowerCase(java.util.Locale.ROOT),
                    onStandby.perRead(onStandby.primary),
                    onPrimary.perRead(onPrimary.primary),
                    ratio,
                    ratio <= 0.25 ? "met" : "NOT met",
                    netB,
                    netA,
                    netB / netA,
                    onStandby.perRead(onStandby.primaryDatabase),
                    onPrimary.perRead(onPrimary.primaryDatabase),
                    onStandby.perRead(onStandby.primaryDatabase) / onPrimary.perRead(onPrimary.primaryDatabase));
        }
    }

    /** One measured window of one kind on one relay, added to {@code cost}. */
    private void measure(Phase phase, Kind kind, Cost cost) throws Exception {
        Placed placedBefore = placed(phase.adminUrl);
        Map<String, Long> primaryBefore = ProcessCpu.treeTicksByName(primaryPostmaster);
        long standbyBefore = ProcessCpu.treeTicks(standbyPostmaster);
        long relayBefore = ProcessCpu.ticks(phase.relayPid);
        long generatorBefore = ProcessCpu.ticks(ProcessHandle.current().pid());
        long begin = System.nanoTime();
        long[] readsAndRefusals = read(phase, kind, seconds);
        cost.seconds += (System.nanoTime() - begin) / 1e9;
        Map<String, Long> primaryAfter = ProcessCpu.treeTicksByName(primaryPostmaster);
        cost.primary += ProcessCpu.total(primaryAfter) - ProcessCpu.total(primaryBefore);
        cost.primaryDatabase += ofDatabase(primaryAfter) - ofDatabase(primaryBefore);
        cost.standby += ProcessCpu.treeTicks(standbyPostmaster) - standbyBefore;
        cost.relay += ProcessCpu.ticks(phase.relayPid) - relayBefore;
        cost.generator += ProcessCpu.ticks(ProcessHandle.current().pid()) - generatorBefore;
        cost.reads += readsAndRefusals[0];
        cost.refused += readsAndRefusals[1];
        cost.placed = cost.placed.plus(placed(phase.adminUrl).minus(placedBefore));
    }

    /** The ticks of the backends connected to the benchmark's database, of a {@link ProcessCpu#treeTicksByName}. */
    private long ofDatabase(Map<String, Long> groups) {
        return groups.entrySet().stream()
                .filter(group -> group.getKey().endsWith(databaseBackends))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /**
     * The kind's closed-loop readers on the phase's relay for {@code seconds}: delta followers each page
     * on from their last cursor; bootstrap readers read the whole set page by page, again and again.
     *
     * @return the pages read (each one signed {@code POST /query}) and the 503s waited out
     */
    private long[] read(Phase phase, Kind kind, int seconds) throws InterruptedException {
        SignedCalls calls = new SignedCalls(phase.url);
        AtomicLong reads = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        int count = kind == Kind.DELTA ? deltaReaders : bootstrapReaders;
        for (int i = 0; i < count; i++) {
            NostrKeys reader = kind == Kind.DELTA ? fixture.memberPool.get(i) : fixture.reader;
            String follower = phase.name + "/" + i;
            Thread thread = new Thread(
                    () -> {
                        try {
                            if (kind == Kind.DELTA) {
                                follow(calls, reader, follower, end, reads, refused);
                            } else {
                                bootstrap(calls, reader, end, reads, refused);
                            }
                        } catch (RuntimeException e) {
                            failure.compareAndSet(null, e);
                        }
                    },
                    "standby-" + kind.name().toLowerCase(java.util.Locale.ROOT) + "-" + i);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return new long[] {reads.get(), refused.get()};
    }

    private void follow(
            SignedCalls calls, NostrKeys reader, String follower, long end, AtomicLong reads, AtomicLong refused) {
        String cursor = cursors.get(follower);
        if (cursor == null) {
            cursor = new Reads(calls).session(reader, null).cursor();
        }
        while (System.nanoTime() < end) {
            PageSummary page = page(calls, reader, cursor, refused);
            reads.incrementAndGet();
            cursor = page.cursor();
        }
        cursors.put(follower, cursor);
    }

    private static void bootstrap(SignedCalls calls, NostrKeys reader, long end, AtomicLong reads, AtomicLong refused) {
        String cursor = null;
        while (System.nanoTime() < end) {
            PageSummary page = page(calls, reader, cursor, refused);
            reads.incrementAndGet();
            cursor = page.more() ? page.cursor() : null;
        }
    }

    private static PageSummary page(SignedCalls calls, NostrKeys reader, String since, AtomicLong refused) {
        String sinceKey = since == null ? "" : ",\"since\":\"" + since + "\"";
        return PageSummary.of(calls.postHonouringRetryAfter(
                        reader,
                        "/query",
                        SignedCalls.query("{\"artifact\":\"incremental\",\"limit\":100" + sinceKey + "}"),
                        refused)
                .expectOk("incremental read")
                .body());
    }

    /** The CPU ticks of the primary's and the standby's servers over {@code idleSeconds} with no reads. */
    private long[] idle() throws IOException, InterruptedException {
        long primaryBefore = ProcessCpu.treeTicks(primaryPostmaster);
        long standbyBefore = ProcessCpu.treeTicks(standbyPostmaster);
        Thread.sleep(idleSeconds * 1000L); // the window's length, not a race
        return new long[] {
            ProcessCpu.treeTicks(primaryPostmaster) - primaryBefore,
            ProcessCpu.treeTicks(standbyPostmaster) - standbyBefore
        };
    }

    /**
     * Writers on the relay with the standby for {@code burstSeconds}, each compare-and-set in its own
     * channel, while the standby's replay lag is sampled every 100 ms on the servers (0 once it has
     * replayed what the primary had made durable, else the age of the last transaction it replayed: the
     * relay's own rule) and every 250 ms as the relay last saw it ({@code GET /api/standbys}).
     */
    private void burst() throws Exception {
        if (burstSeconds <= 0) {
            return;
        }
        AtomicReference<Writers.Result> written = new AtomicReference<>();
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread writers = new Thread(
                () -> {
                    try {
                        written.set(new Writers(new SignedCalls(standbyRelay)).run(burstWriters, burstSeconds));
                    } catch (Exception e) {
                        failure.set(e);
                    }
                },
                "standby-burst");
        List<Long> lagMillis = new ArrayList<>();
        List<Long> lagBytes = new ArrayList<>();
        List<Long> relayLag = new ArrayList<>();
        TreeSet<String> states = new TreeSet<>();
        String lastSampledAt = "";
        try (Connection primary = DriverManager.getConnection(shape.jdbcUrl);
                Connection standby = DriverManager.getConnection(standbyJdbc)) {
            writers.start();
            long next = System.nanoTime();
            int tick = 0;
            while (writers.isAlive()) {
                long[] lag = lag(primary, standby);
                lagBytes.add(lag[0]);
                lagMillis.add(lag[1]);
                if (tick++ % 5 == 0) {
                    JsonNode row = standbys(standbyAdmin).path("standbys").path(0);
                    states.add(row.path("state").asText());
                    if (!row.path("sampledAt").asText().equals(lastSampledAt) && row.hasNonNull("lagMillis")) {
                        lastSampledAt = row.path("sampledAt").asText();
                        relayLag.add(row.path("lagMillis").asLong());
                    }
                }
                next += 100_000_000L;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // the sampling period, not a race
                }
            }
            writers.join();
            if (failure.get() != null) {
                throw failure.get();
            }
            long caughtUp = caughtUp(60);
            Writers.Result result = written.get();
            Load.figure(
                    "write burst: %d writers, %.0f accepted revisions/s for %d s (%d refused) on the relay with the standby",
                    result.writers(), result.perSecond(), burstSeconds, result.refused());
            Load.figure(
                    "standby replay lag during the burst, sampled on the servers every 100 ms (%d samples): p50 %d ms,"
                            + " p99 %d ms, max %d ms; WAL not yet replayed: p50 %,d bytes, max %,d bytes",
                    lagMillis.size(),
                    percentile(lagMillis, 0.5),
                    percentile(lagMillis, 0.99),
                    Collections.max(lagMillis),
                    percentile(lagBytes, 0.5),
                    Collections.max(lagBytes));
            Load.figure(
                    "the same as the relay saw it (lagMillis of /api/standbys, %d samples): p50 %d ms, max %d ms;"
                            + " states seen: %s; replayed everything %d ms after the burst",
                    relayLag.size(),
                    relayLag.isEmpty() ? -1 : percentile(relayLag, 0.5),
                    relayLag.isEmpty() ? -1 : Collections.max(relayLag),
                    states,
                    caughtUp);
        }
    }

    /** Bytes of WAL the standby has not replayed, and its lag by the relay's rule, in ms. */
    private static long[] lag(Connection primary, Connection standby) throws SQLException {
        long durable = single(primary, PRIMARY_POSITION);
        try (Statement statement = standby.createStatement();
                ResultSet row = statement.executeQuery(STANDBY_POSITION)) {
            row.next();
            long replayed = row.getLong(1);
            long age = row.getLong(2);
            return new long[] {Math.max(0, durable - replayed), replayed >= durable ? 0 : Math.max(0, age)};
        }
    }

    /** Waits, at most {@code limitSeconds}, until the standby has replayed what the primary had made durable. */
    private long caughtUp(int limitSeconds) throws SQLException, InterruptedException {
        long begin = System.nanoTime();
        try (Connection primary = DriverManager.getConnection(shape.jdbcUrl);
                Connection standby = DriverManager.getConnection(standbyJdbc)) {
            long target = single(primary, PRIMARY_POSITION);
            while (System.nanoTime() - begin < limitSeconds * 1_000_000_000L) {
                if (single(standby, STANDBY_POSITION) >= target) {
                    return (System.nanoTime() - begin) / 1_000_000;
                }
                Thread.sleep(50); // polling the standby's replay, bounded by limitSeconds
            }
        }
        throw new IllegalStateException(
                "the standby had not replayed the primary's position within " + limitSeconds + " s");
    }

    /** Waits, at most {@code limitSeconds}, until the relay routes reads to its standby. */
    private void awaitServing(String adminUrl, int limitSeconds) throws IOException, InterruptedException {
        String state = "";
        for (int i = 0; i < limitSeconds * 4; i++) {
            state = standbys(adminUrl).path("standbys").path(0).path("state").asText();
            if (state.equals("HEALTHY")) {
                return;
            }
            Thread.sleep(250); // the relay samples once a second; bounded by limitSeconds
        }
        throw new IllegalStateException(
                "the relay's standby is " + state + ", not HEALTHY, after " + limitSeconds + " s");
    }

    private Placed placed(String adminUrl) throws IOException, InterruptedException {
        JsonNode reads = standbys(adminUrl).path("reads");
        return new Placed(
                reads.path("standby").asLong(),
                reads.path("primary").asLong(),
                reads.path("primaryAfterStandby").asLong());
    }

    private JsonNode standbys(String adminUrl) throws IOException, InterruptedException {
        HttpResponse<String> response = admin.send(
                HttpRequest.newBuilder(URI.create(adminUrl + "/api/standbys"))
                        .header("Authorization", "Bearer " + adminToken)
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("admin /api/standbys answered " + response.statusCode() + ": " + response.body());
        }
        return SignedCalls.JSON.readTree(response.body());
    }

    private static long single(Connection db, String sql) throws SQLException {
        try (Statement statement = db.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    /** Nearest rank. */
    private static long percentile(List<Long> values, double p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(Math.max(0, (int) Math.ceil(p * sorted.size()) - 1));
    }
}
