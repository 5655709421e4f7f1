package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.Tags;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * WebSocket fan-out under load: subscribers of one open channel spread over the given
 * relay instances, and one writer creating artifacts in it at a fixed rate (open loop: a slow relay
 * does not slow the writer down). Reports, for the writes of the measured window, the time from
 * sending each write to each subscriber's frame (p50, p99, max), frames delivered against expected,
 * and each relay's CPU over the window from {@code /proc/<pid>/stat}.
 *
 * <p>Usage: {@code FanoutBenchmark <baseUrl[,baseUrl...]> <relayPid[,relayPid...]> <subscribers>
 * <writesPerSecond> <seconds>}
 */
public final class FanoutBenchmark {
    private static final int WARMUP_SECONDS = 5;

    private FanoutBenchmark() {}

    public static void main(String[] args) throws Exception {
        List<String> baseUrls = List.of(args[0].split(","));
        List<Long> pids = Arrays.stream(args[1].split(",")).map(Long::parseLong).toList();
        int subscribers = Integer.parseInt(args[2]);
        int writesPerSecond = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);

        HttpClient http = HttpClient.newHttpClient();
        Seed seed = Seed.create(baseUrls.get(0), 0);
        Map<String, Long> sentNanos = new ConcurrentHashMap<>();
        try (FanoutSubscribers subscribed = new FanoutSubscribers(sentNanos)) {
            subscribed.connect(http, baseUrls, seed.channel(), subscribers);
            Writer warmup = new Writer(http, baseUrls.get(0), seed, new ConcurrentHashMap<>());
            warmup.run(writesPerSecond, WARMUP_SECONDS);

            long[] cpuBefore = cpuTicks(pids);
            long loadGeneratorBefore = loadGeneratorCpuNanos();
            long started = System.nanoTime();
            Writer writer = new Writer(http, baseUrls.get(0), seed, sentNanos);
            writer.run(writesPerSecond, seconds);
            double windowSeconds = (System.nanoTime() - started) / 1e9;
            long[] cpuAfter = cpuTicks(pids);
            long loadGenerator = loadGeneratorCpuNanos() - loadGeneratorBefore;

            long expected = writer.accepted.get() * subscribers;
            awaitFrames(subscribed, expected);

            System.out.printf(
                    "fan-out: %d subscribers on %d instance(s), %d writes/s for %d s%n",
                    subscribers, baseUrls.size(), writesPerSecond, seconds);
            Latencies.Summary writes = writer.latencies.summaries().get("write");
            System.out.printf(
                    "writes: %d accepted, %d failed %s; write latency p50 %.1f ms, p99 %.1f ms%n",
                    writer.accepted.get(),
                    writer.failed.get(),
                    writes.failures(),
                    writes.p50Millis(),
                    writes.p99Millis());
            System.out.printf(
                    "frames: %d of %d delivered (%.2f %%), %d subscriptions closed by the relay%n",
                    subscribed.frames.get(),
                    expected,
                    expected == 0 ? 0 : 100.0 * subscribed.frames.get() / expected,
                    subscribed.closedByRelay.get());
            System.out.printf(
                    "write-to-frame: p50 %d ms, p99 %d ms, max %d ms%n",
                    subscribed.percentile(0.50), subscribed.percentile(0.99), subscribed.percentile(1.0));
            for (int i = 0; i < pids.size(); i++) {
                double cpuSeconds = (cpuAfter[i] - cpuBefore[i]) / (double) ProcessCpu.TICKS_PER_SECOND;
                System.out.printf(
                        "relay %d (pid %d) CPU: %.1f s in %.1f s = %.0f %% of one core%n",
                        i + 1, pids.get(i), cpuSeconds, windowSeconds, 100 * cpuSeconds / windowSeconds);
            }
            System.out.printf("load generator CPU: %.0f %% of one core%n", 100 * loadGenerator / 1e9 / windowSeconds);
            String[] load = Files.readString(Path.of("/proc/loadavg")).split(" ");
            System.out.printf("machine load average at the end (1, 5, 15 min): %s %s %s%n", load[0], load[1], load[2]);
        }
        System.exit(0);
    }

    /** Waits until every expected frame arrived, nothing arrived for 10 s, or 120 s passed: the rest count as late. */
    private static void awaitFrames(FanoutSubscribers subscribed, long expected) throws InterruptedException {
        long last = -1;
        long stalledSince = System.nanoTime();
        long giveUp = stalledSince + TimeUnit.SECONDS.toNanos(120);
        while (subscribed.frames.get() < expected && System.nanoTime() < giveUp) {
            long now = subscribed.frames.get();
            if (now != last) {
                last = now;
                stalledSince = System.nanoTime();
            } else if (System.nanoTime() - stalledSince > TimeUnit.SECONDS.toNanos(10)) {
                return;
            }
            Thread.sleep(50);
        }
    }

    /** utime + stime of each process, in clock ticks. */
    private static long[] cpuTicks(List<Long> pids) throws Exception {
        long[] ticks = new long[pids.size()];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = ProcessCpu.ticks(pids.get(i));
        }
        return ticks;
    }

    private static long loadGeneratorCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Creates one artifact per tick in the seeded channel; each write is sent without waiting for the last. */
    private static final class Writer {
        private final HttpClient http;
        private final String baseUrl;
        private final Seed seed;
        private final Map<String, Long> sentNanos;
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final Latencies latencies = new Latencies();

        Writer(HttpClient http, String baseUrl, Seed seed, Map<String, Long> sentNanos) {
            this.http = http;
            this.baseUrl = baseUrl;
            this.seed = seed;
            this.sentNanos = sentNanos;
        }

        void run(int perSecond, int seconds) throws InterruptedException {
            ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
            AtomicLong inFlight = new AtomicLong();
            long total = (long) perSecond * seconds;
            AtomicLong sent = new AtomicLong();
            ticks.scheduleAtFixedRate(
                    () -> {
                        if (sent.incrementAndGet() <= total) {
                            inFlight.incrementAndGet();
                            write(inFlight);
                        }
                    },
                    0,
                    TimeUnit.SECONDS.toNanos(1) / perSecond,
                    TimeUnit.NANOSECONDS);
            while (sent.get() < total || inFlight.get() > 0) {
                Thread.sleep(10);
            }
            ticks.shutdownNow();
        }

        private void write(AtomicLong inFlight) {
            long now = System.currentTimeMillis() / 1000;
            Event event = seed.keys()
                    .sign(
                            45010,
                            now,
                            List.of(
                                    List.of(Tags.ARTIFACT_FLAG, "1"),
                                    List.of(Tags.ARTIFACT_ID, UUID.randomUUID().toString()),
                                    List.of(Tags.CHANNEL, seed.channel().toString()),
                                    List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                                    List.of(Tags.OPERATION, "create"),
                                    List.of(Tags.TITLE, "fan-out task")),
                            "fan-out body");
            byte[] body = event.toJson().getBytes(StandardCharsets.UTF_8);
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/events"))
                    .header(
                            "Authorization",
                            Nip98.authorizationHeader(seed.keys(), "POST", baseUrl + "/events", body, now))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build();
            long start = System.nanoTime();
            sentNanos.put(event.id(), start);
            http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, failure) -> {
                if (failure == null && response.statusCode() == 200) {
                    latencies.ok("write", System.nanoTime() - start);
                    accepted.incrementAndGet();
                } else {
                    latencies.failed(
                            "write",
                            failure != null
                                    ? failure.getClass().getSimpleName()
                                    : String.valueOf(response.statusCode()));
                    failed.incrementAndGet();
                }
                inFlight.decrementAndGet();
            });
        }
    }
}
