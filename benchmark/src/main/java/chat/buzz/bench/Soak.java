package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Sustained mixed load against a relay on 127.0.0.1 for a bounded time: revision writes,
 * incremental delta reads that follow their cursor, known-ID reads and WebSocket subscribers, while
 * the relay's heap, RSS, threads and connection pool are sampled every 10 s. Prints p50/p99 per kind
 * and whether any sampled figure trends upward. Exits 1 when a request failed other than with a 503
 * (load shed as designed, reported but not counted), a subscriber was closed, or a figure grew.
 *
 * <p>Usage: Soak baseUrl adminUrl adminToken relayPid seconds [subscribers=50]
 */
public final class Soak {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int WRITERS = 2;
    private static final int DELTA_READERS = 2;
    private static final int KNOWN_ID_READERS = 1;
    private static final Duration SAMPLE_EVERY = Duration.ofSeconds(10);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Latencies latencies = new Latencies();
    private final AtomicBoolean over = new AtomicBoolean();
    /** Each load thread signs as its own member: the relay limits concurrent incremental reads per pubkey. */
    private final ThreadLocal<NostrKeys> caller = ThreadLocal.withInitial(NostrKeys::generate);

    private final String baseUrl;
    private final Seed seed;

    private Soak(String baseUrl, Seed seed) {
        this.baseUrl = baseUrl;
        this.seed = seed;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: Soak baseUrl adminUrl adminToken relayPid seconds [subscribers=50]");
            System.exit(2);
        }
        String baseUrl = args[0];
        for (String url : List.of(args[0], args[1])) {
            if (!URI.create(url).getHost().equals("127.0.0.1")) {
                throw new IllegalArgumentException("the soak runs against 127.0.0.1 only, not " + url);
            }
        }
        long seconds = Long.parseLong(args[4]);
        int subscribers = args.length > 5 ? Integer.parseInt(args[5]) : 50;
        Seed seed = Seed.create(baseUrl, 200);
        Soak soak = new Soak(baseUrl, seed);
        RelaySampler sampler = new RelaySampler(soak.http, args[1], args[2], Long.parseLong(args[3]));
        boolean healthy = soak.run(sampler, Duration.ofSeconds(seconds), subscribers);
        System.exit(healthy ? 0 : 1);
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
            subscribers.connect(http, baseUrl, seed.channel(), subscriberCount);
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
            System.out.printf(
                    "%-10s %9d %7d %9.2f %9.2f %s%n",
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
            List<List<String>> tags = new ArrayList<>(List.of(
                    List.of(Tags.ARTIFACT_FLAG, "1"),
                    List.of(Tags.ARTIFACT_ID, d.toString()),
                    List.of(Tags.CHANNEL, seed.channel().toString()),
                    List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                    List.of(Tags.OPERATION, head == null ? "create" : "update"),
                    List.of(Tags.TITLE, "soak task " + edits)));
            if (head != null) {
                tags.add(List.of(Tags.PREVIOUS_REVISION, head));
            }
            Event event = caller.get()
                    .sign(Kinds.ARTIFACT_REVISION, System.currentTimeMillis() / 1000, tags, "soak body " + edits);
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
            call("known-id", "/query", "[{\"artifact\":\"incremental\",\"#d\":" + toJson(ids) + "}]");
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
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        long begin = System.nanoTime();
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + path))
                            .timeout(Duration.ofSeconds(30))
                            .header(
                                    "Authorization",
                                    Nip98.authorizationHeader(
                                            caller.get(),
                                            "POST",
                                            baseUrl + path,
                                            bytes,
                                            System.currentTimeMillis() / 1000))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                latencies.failed(kind, Integer.toString(response.statusCode()));
                return null;
            }
            latencies.ok(kind, System.nanoTime() - begin);
            return JSON.readTree(response.body());
        } catch (Exception e) {
            latencies.failed(kind, e.getClass().getSimpleName());
            return null;
        }
    }

    private static String toJson(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
