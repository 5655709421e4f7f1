package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The ceiling of accepted revisions per second: {@code writers} threads, closed loop, each with its own
 * key editing its own artifact in one open channel by compare-and-set (every update names the head it
 * replaces in {@code prev}), signed NIP-98 {@code POST /events}. Every revision and its auth header are
 * signed before the clock starts: each writer's chain is known ahead (revision n names revision n-1),
 * so the load generator spends no CPU on signatures while the relay is measured on the same cores. The
 * headers carry one {@code created_at} a little under 60 s after signing began, so they stay within the
 * relay's ±60 s (PROTOCOL 2.1) from then until {@link #VALID_SECONDS} after it. Run by bench/writes.sh.
 */
@Command(name = "WriteCeiling", mixinStandardHelpOptions = true, description = "Accepted revisions per second.")
public final class WriteCeiling implements Callable<Integer> {
    /** Seconds from the start of signing for which the signed headers are accepted. */
    static final int VALID_SECONDS = 110;

    @Option(names = "--url", required = true, description = "the relay's base URL")
    String baseUrl;

    @Option(names = "--writers", defaultValue = "8", description = "closed-loop writer threads")
    int writers;

    @Option(
            names = "--settle",
            defaultValue = "0",
            description = "seconds of writes signed as they are sent, before any is signed ahead, so the relay's"
                    + " JIT has compiled the write path before the measured writers start; not counted")
    int settleSeconds;

    @Option(names = "--warmup", defaultValue = "10", description = "warm-up seconds, not counted")
    int warmupSeconds;

    @Option(names = "--seconds", defaultValue = "20", description = "measured seconds; 0 only settles")
    int seconds;

    @Option(
            names = "--relay-pid",
            description = "the relay's process id: with --jdbc, the figure gives the CPU per accepted write of"
                    + " the relay, its PostgreSQL and this load generator")
    Long relayPid;

    @Option(names = "--jdbc", description = "a JDBC URL of the relay's PostgreSQL, to find its server's processes")
    String jdbcUrl;

    @Option(
            names = "--supply-rate",
            defaultValue = "2000",
            description = "accepted revisions/s, over all writers, that the writes signed ahead cover (at most 1,000"
                    + " per writer); a writer that uses up its own stops, and the figure is then a lower bound")
    int supplyRate;

    public static void main(String[] args) {
        System.exit(new CommandLine(new WriteCeiling()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Seed seed = Seed.create(baseUrl, 0);
        SignedCalls calls = new SignedCalls(
                baseUrl,
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
        if (settleSeconds > 0) {
            settle(calls, seed.channel());
        }
        if (seconds == 0) {
            return 0;
        }
        long signingBegan = System.currentTimeMillis();
        long headersAt = signingBegan / 1000 + 55;
        int perWriter = Math.min(supplyRate / writers, 1000) * (warmupSeconds + seconds);
        List<List<HttpRequest>> supplies = IntStream.range(0, writers)
                .parallel()
                .mapToObj(i -> signAhead(calls, seed.channel(), perWriter, headersAt))
                .toList();
        long signedFor = System.currentTimeMillis() - signingBegan;
        if (signedFor / 1000 + warmupSeconds + seconds > VALID_SECONDS) {
            throw new IllegalStateException("signing ahead took " + signedFor + " ms: the headers would expire during"
                    + " the run; lower --supply-rate, --warmup or --seconds");
        }
        Load.figure("writers %d: %,d revisions and headers each signed ahead in %,d ms", writers, perWriter, signedFor);

        Latencies latencies = new Latencies();
        AtomicLong accepted = new AtomicLong();
        AtomicLong exhausted = new AtomicLong();
        long warmupEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds);
        long ends = warmupEnds + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        for (List<HttpRequest> supply : supplies) {
            Thread thread = new Thread(
                    () -> edit(calls, supply, warmupEnds, ends, latencies, accepted, exhausted),
                    "writer-" + threads.size());
            thread.start();
            threads.add(thread);
        }
        CpuWindow cpu = relayPid == null || jdbcUrl == null
                ? null
                : CpuWindow.from(warmupEnds, relayPid, ProcessCpu.postmaster(jdbcUrl));
        for (Thread thread : threads) {
            thread.join();
        }
        if (cpu != null) {
            cpu.report(writers, accepted.get());
        }
        Latencies.Summary summary = latencies.summary("write");
        Load.figure(
                "writers %d: %.0f accepted revisions/s over %d s (p50 %.1f ms, p99 %.1f ms), %d refused %s%s",
                writers,
                accepted.get() / (double) seconds,
                seconds,
                summary.p50Millis(),
                summary.p99Millis(),
                summary.failed(),
                summary.failures(),
                exhausted.get() == 0
                        ? ""
                        : "; " + exhausted.get() + " writers used up what was signed ahead: a lower bound");
        return 0;
    }

    /**
     * Runs the writers for {@code settleSeconds}, each signing its next revision as it goes: signed ahead,
     * the headers of a run long enough to settle the relay's JIT would expire before they are sent.
     */
    private void settle(SignedCalls calls, UUID channel) throws InterruptedException {
        long ends = System.nanoTime() + TimeUnit.SECONDS.toNanos(settleSeconds);
        AtomicLong settled = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            Thread thread = new Thread(() -> editSigningAsSent(calls, channel, ends, settled), "settle-" + i);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        Load.figure(
                "writers %d: settled the relay with %,d writes signed as sent over %d s (not counted)",
                writers, settled.get(), settleSeconds);
    }

    private static void editSigningAsSent(SignedCalls calls, UUID channel, long ends, AtomicLong settled) {
        NostrKeys keys = NostrKeys.generate();
        UUID d = UUID.randomUUID();
        String head = null;
        while (System.nanoTime() < ends) {
            Event event = Events.revision(keys, d, channel, head, "settling task", "settling body", Events.now());
            calls.send(calls.request(keys, "/events", event.toJson())).expectOk("a settling write");
            head = event.id();
            settled.incrementAndGet();
        }
    }

    /** A writer's chain of signed requests: a create, then updates each naming the revision before. */
    private static List<HttpRequest> signAhead(SignedCalls calls, UUID channel, int count, long headersAt) {
        NostrKeys keys = NostrKeys.generate();
        UUID d = UUID.randomUUID();
        long createdAt = Events.now();
        List<HttpRequest> requests = new ArrayList<>(count);
        String head = null;
        for (int n = 0; n < count; n++) {
            Event event = Events.revision(keys, d, channel, head, "ceiling task", "ceiling body", createdAt);
            requests.add(calls.request(keys, "/events", event.toJson(), headersAt));
            head = event.id();
        }
        return requests;
    }

    /**
     * Sends the writer's chain in order until the clock ends. A refusal stops the writer: the next
     * revision names one the relay does not hold as its head, so every later one would be refused too.
     */
    private static void edit(
            SignedCalls calls,
            List<HttpRequest> supply,
            long warmupEnds,
            long ends,
            Latencies latencies,
            AtomicLong accepted,
            AtomicLong exhausted) {
        int next = 0;
        while (System.nanoTime() < ends) {
            if (next == supply.size()) {
                exhausted.incrementAndGet();
                return;
            }
            try {
                SignedCalls.Reply reply = calls.send(supply.get(next));
                boolean measured = System.nanoTime() - reply.nanos() >= warmupEnds;
                if (reply.status() != 200) {
                    latencies.failed("write", String.valueOf(reply.status()));
                    return;
                }
                next++;
                if (measured) {
                    latencies.ok("write", reply.nanos());
                    accepted.incrementAndGet();
                }
            } catch (RuntimeException e) {
                latencies.failed("write", e.getClass().getSimpleName());
                return;
            }
        }
    }

    /**
     * The CPU the relay, its PostgreSQL server (postmaster, backends and workers) and this load generator
     * use over the measured window, read from /proc when the warm-up ends and again when every writer has
     * stopped: per accepted write, and as the cores the three together would need at 1,000 writes/s.
     */
    private record CpuWindow(long relayPid, long postmaster, long relay, Map<String, Long> postgres, long generator) {
        static CpuWindow from(long warmupEnds, long relayPid, long postmaster)
                throws IOException, InterruptedException {
            long wait = warmupEnds - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            return new CpuWindow(
                    relayPid,
                    postmaster,
                    ProcessCpu.ticks(relayPid),
                    ProcessCpu.treeTicksByName(postmaster),
                    ProcessCpu.ticks(ProcessHandle.current().pid()));
        }

        void report(int writers, long accepted) throws IOException {
            double perWrite = 1000.0 / ProcessCpu.TICKS_PER_SECOND / Math.max(accepted, 1);
            Map<String, Long> postgresNow = ProcessCpu.treeTicksByName(postmaster);
            double relayMs = (ProcessCpu.ticks(relayPid) - relay) * perWrite;
            double postgresMs = (ProcessCpu.total(postgresNow) - ProcessCpu.total(postgres)) * perWrite;
            double generatorMs = (ProcessCpu.ticks(ProcessHandle.current().pid()) - generator) * perWrite;
            Load.figure(
                    "writers %d: CPU per accepted write: relay %.2f ms, PostgreSQL %.2f ms, load generator %.2f ms;"
                            + " 1,000 writes/s would take %.2f cores of them; PostgreSQL's busiest, s: %s",
                    writers,
                    relayMs,
                    postgresMs,
                    generatorMs,
                    (relayMs + postgresMs + generatorMs),
                    ProcessCpu.busiest(postgres, postgresNow, 4));
        }
    }
}
