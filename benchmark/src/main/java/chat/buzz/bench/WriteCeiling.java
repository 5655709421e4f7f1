package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ceiling of accepted revisions per second: {@code writers} threads, closed loop, each
 * with its own key editing its own artifact in one open channel by compare-and-set (every update
 * names the head it replaces in {@code prev}), signed NIP-98 {@code POST /events}.
 *
 * <p>Usage: {@code WriteCeiling <baseUrl> <writers> <warmupSeconds> <seconds>}
 */
public final class WriteCeiling {
    private WriteCeiling() {}

    public static void main(String[] args) throws Exception {
        String baseUrl = args[0];
        int writers = Integer.parseInt(args[1]);
        int warmupSeconds = Integer.parseInt(args[2]);
        int seconds = Integer.parseInt(args[3]);
        Seed seed = Seed.create(baseUrl, 0);
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        Latencies latencies = new Latencies();
        AtomicLong accepted = new AtomicLong();
        long warmupEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds);
        long ends = warmupEnds + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            Thread thread = new Thread(
                    () -> edit(http, baseUrl, seed.channel(), warmupEnds, ends, latencies, accepted), "writer-" + i);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        Latencies.Summary summary = latencies.summaries().get("write");
        System.out.printf(
                "writers %d: %.0f accepted revisions/s over %d s (p50 %.1f ms, p99 %.1f ms), %d refused %s%n",
                writers,
                accepted.get() / (double) seconds,
                seconds,
                summary.p50Millis(),
                summary.p99Millis(),
                summary.failed(),
                summary.failures());
    }

    private static void edit(
            HttpClient http,
            String baseUrl,
            UUID channel,
            long warmupEnds,
            long ends,
            Latencies latencies,
            AtomicLong accepted) {
        NostrKeys keys = NostrKeys.generate();
        UUID d = UUID.randomUUID();
        String head = null;
        while (System.nanoTime() < ends) {
            List<List<String>> tags = new ArrayList<>(List.of(
                    List.of(Tags.ARTIFACT_FLAG, "1"),
                    List.of(Tags.ARTIFACT_ID, d.toString()),
                    List.of(Tags.CHANNEL, channel.toString()),
                    List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                    List.of(Tags.OPERATION, head == null ? "create" : "update"),
                    List.of(Tags.TITLE, "ceiling task")));
            if (head != null) {
                tags.add(List.of(Tags.PREVIOUS_REVISION, head));
            }
            long now = System.currentTimeMillis() / 1000;
            Event event = keys.sign(45010, now, tags, "ceiling body");
            byte[] body = event.toJson().getBytes(StandardCharsets.UTF_8);
            long start = System.nanoTime();
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(URI.create(baseUrl + "/events"))
                                .header(
                                        "Authorization",
                                        Nip98.authorizationHeader(keys, "POST", baseUrl + "/events", body, now))
                                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                boolean measured = start >= warmupEnds;
                if (response.statusCode() == 200) {
                    head = event.id();
                    if (measured) {
                        latencies.ok("write", System.nanoTime() - start);
                        accepted.incrementAndGet();
                    }
                } else if (measured) {
                    latencies.failed("write", String.valueOf(response.statusCode()));
                }
            } catch (Exception e) {
                latencies.failed("write", e.getClass().getSimpleName());
            }
        }
    }
}
