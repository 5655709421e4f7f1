package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Sustained mixed load against a relay on 127.0.0.1 for a bounded time: revision writes,
 * incremental delta reads that follow their cursor, known-ID reads and WebSocket subscribers, while
 * the relay's heap, RSS, threads and connection pool are sampled every 10 s. Prints p50/p99 per kind
 * and whether any sampled figure trends upward. Exits 1 when a request failed other than with a 503
 * (load shed as designed, reported but not counted), a subscriber was closed, or a figure grew. Run by
 * bench/soak.sh.
 */
public final class Soak {
    private static final int WRITERS = 2;
    private static final int DELTA_READERS = 2;
    private static final int KNOWN_ID_READERS = 1;
    private static final Duration SAMPLE_EVERY = Duration.ofSeconds(10);

    private final SignedCalls calls;
    private final Latencies latencies = new Latencies();
    private final AtomicBoolean over = new AtomicBoolean();
    /** Each load thread signs as its own member: the relay limits concurrent incremental reads per pubkey. */
    private final ThreadLocal<NostrKeys> caller = ThreadLocal.withInitial(NostrKeys::generate);

    private final String baseUrl;
    private final Seed seed;

    private Soak(String baseUrl, Seed seed) {
        this.baseUrl = baseUrl;
        this.seed = seed;
        this.calls = new SignedCalls(baseUrl);
    }

    @Command(name = "Soak", mixinStandardHelpOptions = true, description = "Bounded mixed load; exits 1 if unhealthy.")
    static final class Options implements Callable<Integer> {
        @CommandLine.Mixin
        RelayOptions relay;

        @Option(names = "--seconds", defaultValue = "1800", description = "how long the load runs")
        long seconds;

        @Option(names = "--subscribers", defaultValue = "50", description = "WebSocket subscribers")
        int subscribers;

        @Override
        public Integer call() throws Exception {
            relay.requireLoopback();
            Soak soak = new Soak(relay.baseUrl, Seed.create(relay.baseUrl, 200));
            RelaySampler sampler = relay.sampler(soak.calls.http());
            return soak.run(sampler, Duration.ofSeconds(seconds), subscribers) ? 0 : 1;
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new Options()).execute(args));
    }

    private boolean run(RelaySampler sampler, Duration length, int subscriberCount) throws Exception {
        List<String> knownIds = knownIds();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < WRITERS; i++) {
            workers.add(worker("writer-" + i, this::writeLoop));
        }
        for (int i = 0; i < DELTA_READERS; i++) {
            workers.add(worker("delta-" + i, this::deltaLoop));
        }
        for (int i = 0; i < KNOWN_ID_READERS; i++) {
            workers.add(worker("known-id-" + i, () -> knownIdLoop(knownIds)));
        }
        List<Sample> samples = new ArrayList<>();
        System.out.println("soak: " + length.toSeconds() + " s, " + WRITERS + " writers, " + DELTA_READERS
                + " delta readers, " + KNOWN_ID_READERS + " known-ID reader, " + subscriberCount + " subscribers");
        System.out.println(Sample.header());
        long started = System.nanoTime();
        try (SoakSubscribers subscribers = new SoakSubscribers()) {
            subscribers.connect(calls.http(), baseUrl, seed.channel(), subscriberCount);
            workers.forEach(Thread::start);
            long next = started;
            while (System.nanoTime() - started < length.toNanos()) {
                Sample sample = sampler.sample((System.nanoTime() - started) / 1_000_000_000L);
                samples.add(sample);
                System.out.println(sample.line());
                next += SAMPLE_EVERY.toNanos();
                long wait = Math.min(next, started + length.toNanos()) - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // the sampling clock, not a race
                }
            }
            over.set(true);
            for (Thread worker : workers) {
                worker.join();
            }
            samples.add(sampler.sample((System.nanoTime() - started) / 1_000_000_000L));
            System.out.println(samples.get(samples.size() - 1).line());
            System.out.printf(
                    "websocket: %d events delivered to %d subscribers, %d resets, %d closed by the relay%n",
                    subscribers.events.get(),
                    subscriberCount,
                    subscribers.resets.get(),
                    subscribers.closedByRelay.get());
            return report(samples, subscribers.closedByRelay.get() == 0);
        }
    }

    private boolean report(List<Sample> samples, boolean subscribersStayed) {
        boolean healthy = subscribersStayed;
        System.out.printf("%-10s %9s %7s %9s %9s%n", "kind", "ok", "failed", "p50 ms", "p99 ms");
        for (Map.Entry<String, Latencies.Summary> kind : latencies.summaries().entrySet()) {
            Latencies.Summary s = kind.getValue();
            Load.figure(
                    "%-10s %9d %7d %9.2f %9.2f %s",
                    kind.getKey(),
                    s.ok(),
                    s.failed(),
                    s.p50Millis(),
                    s.p99Millis(),
                    s.failures().isEmpty() ? "" : s.failures());
            // A 503 is the relay shedding load as designed (bulkhead, statement budget); anything else is a fault.
            healthy &= s.failed() - s.failures().getOrDefault("503", 0L) == 0;
        }
        boolean judged = Trends.judged(samples);
        for (Trends.Trend trend : Trends.of(samples)) {
            System.out.println(trend.line());
            healthy &= !(judged && trend.judged() && trend.upward());
        }
        if (!judged) {
            System.out.println("trends: too short to judge (under " + Trends.MIN_JUDGED_SECONDS
                    + " s after the warm-up); only failures count");
        }
        System.out.println(healthy ? "soak: healthy" : "soak: NOT healthy (failures or a figure trending upward)");
        return healthy;
    }

    private Thread worker(String name, Runnable loop) {
        Thread thread = new Thread(loop, "soak-" + name);
        thread.setDaemon(true);
        return thread;
    }

    /** Compare-and-set edits of the writer's own artifact; every 50 edits a new artifact. */
    private void writeLoop() {
        String head = null;
        UUID d = UUID.randomUUID();
        int edits = 0;
        while (!over.get()) {
            if (edits++ % 50 == 0) {
                d = UUID.randomUUID();
                head = null;
            }
            Event event =
                    Events.revision(caller.get(), d, seed.channel(), head, "soak task " + edits, "soak body " + edits);
            if (call("write", "/events", event.toJson()) != null) {
                head = event.id();
            } else {
                head = null; // start over on a new artifact rather than guess the head
                edits = 0;
            }
        }
    }

    /** Bootstraps, then keeps reading deltas from its cursor, as a syncing client does. */
    private void deltaLoop() {
        String cursor = null;
        while (!over.get()) {
            String since = cursor == null ? "" : ",\"since\":\"" + cursor + "\"";
            JsonNode page = call(
                    cursor == null ? "bootstrap" : "delta",
                    "/query",
                    "[{\"artifact\":\"incremental\",\"#h\":[\"" + seed.channel() + "\"],\"limit\":100" + since + "}]");
            if (page != null) {
                cursor = page.path("reset").asBoolean()
                        ? null
                        : page.path("cursor").asText(null);
            }
        }
    }

    /** Known-ID reads of 20 artifacts, some of them unknown to the relay. */
    private void knownIdLoop(List<String> known) {
        Random random = new Random(1);
        while (!over.get()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ids.add(
                        i % 5 == 0 || known.isEmpty()
                                ? UUID.randomUUID().toString()
                                : known.get(random.nextInt(known.size())));
            }
            call("known-id", "/query", "[{\"artifact\":\"incremental\",\"#d\":" + SignedCalls.json(ids) + "}]");
        }
    }

    private List<String> knownIds() {
        JsonNode page = call(
                "bootstrap",
                "/query",
                "[{\"artifact\":\"incremental\",\"#h\":[\"" + seed.channel() + "\"],\"limit\":100}]");
        List<String> ids = new ArrayList<>();
        if (page != null) {
            page.path("entries").forEach(entry -> ids.add(entry.path("d").asText()));
        }
        return ids;
    }

    /** One signed POST; its latency if it answered 200, a failure by status otherwise. */
    private JsonNode call(String kind, String path, String body) {
        try {
            SignedCalls.Reply reply = calls.post(caller.get(), path, body);
            if (reply.status() != 200) {
                latencies.failed(kind, Integer.toString(reply.status()));
                return null;
            }
            latencies.ok(kind, reply.nanos());
            return reply.json();
        } catch (RuntimeException e) {
            latencies.failed(kind, e.getClass().getSimpleName());
            return null;
        }
    }
}
