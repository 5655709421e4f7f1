package chat.buzz.bench.scale;

import chat.buzz.bench.Load;
import chat.buzz.bench.ProcessCpu;
import chat.buzz.bench.SignedCalls;
import chat.buzz.protocol.NostrKeys;
import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

    private StandbyReplay replay;
    private RelayStandbys relays;
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

    enum Kind {
        DELTA,
        BOOTSTRAP
    }

    /** A relay under test: A has no replicas, B reads from the standby. */
    record Phase(String name, String url, long relayPid, String adminUrl) {}

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
        replay = new StandbyReplay(shape.jdbcUrl, standbyJdbc);
        relays = new RelayStandbys(adminToken);
        Load.figure("standby caught up with the seeded shape %d ms after the seed", replay.caughtUp(120));
        relays.awaitServing(standbyAdmin, 60);

        Phase a = new Phase("A primary serves", primaryRelay, primaryRelayPid, primaryAdmin);
        Phase b = new Phase("B standby serves", standbyRelay, standbyRelayPid, standbyAdmin);
        Map<String, OffloadReport.Cost> costs = new HashMap<>();
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
                    measure(phase, kind, costs.computeIfAbsent(phase.name + kind, k -> new OffloadReport.Cost()));
                }
            }
        }
        long[] idle = idle();
        OffloadReport.print(a, b, costs, idle, idleSeconds);
        new StandbyBurst(replay, relays, standbyRelay, standbyAdmin, shape.jdbcUrl, standbyJdbc)
                .run(burstWriters, burstSeconds);
        return 0;
    }

    /** One measured window of one kind on one relay, added to {@code cost}. */
    private void measure(Phase phase, Kind kind, OffloadReport.Cost cost) throws Exception {
        RelayStandbys.Placed placedBefore = relays.placed(phase.adminUrl);
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
        cost.placed = cost.placed.plus(relays.placed(phase.adminUrl).minus(placedBefore));
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
}
