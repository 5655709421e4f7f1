package chat.buzz.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Reads the relay's heap, threads, pool and connections from its admin /metrics, and its RSS from /proc. */
public final class RelaySampler {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final String adminUrl;
    private final String token;
    private final long pid;

    public RelaySampler(HttpClient http, String adminUrl, String token, long pid) {
        this.http = http;
        this.adminUrl = adminUrl;
        this.token = token;
        this.pid = pid;
    }

    public Sample sample(long atSeconds) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(adminUrl + "/metrics"))
                        .header("Authorization", "Bearer " + token)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("admin /metrics answered " + response.statusCode() + ": " + response.body());
        }
        JsonNode gauges = JSON.readTree(response.body()).path("gauges");
        return new Sample(
                atSeconds,
                gauge(gauges, "jvm.memory.heap.used"),
                gauge(gauges, "jvm.memory.pools.G1-Old-Gen.used"),
                gauge(gauges, "jvm.memory.non-heap.used"),
                rssBytes(),
                gauge(gauges, "jvm.threads.count"),
                poolGauge(gauges, ".active"),
                poolGauge(gauges, ".size"),
                gauge(gauges, "buzz.sync.connections"));
    }

    /** The highest heap use seen, sampled every 250 ms on a daemon thread until {@link #stop}. */
    public final class PeakHeap {
        private final AtomicLong peak = new AtomicLong();
        private final AtomicBoolean over = new AtomicBoolean();

        private void watch() {
            while (!over.get()) {
                try {
                    peak.accumulateAndGet(sample(0).heapUsedBytes(), Math::max);
                    Thread.sleep(250); // the sampling period
                } catch (IOException | InterruptedException | RuntimeException e) {
                    return;
                }
            }
        }

        public void stop() {
            over.set(true);
        }

        public long bytes() {
            return peak.get();
        }
    }

    public PeakHeap watchPeakHeap() {
        PeakHeap heap = new PeakHeap();
        Thread thread = new Thread(heap::watch, "heap-watch");
        thread.setDaemon(true);
        thread.start();
        return heap;
    }

    private static long gauge(JsonNode gauges, String name) {
        return gauges.path(name).path("value").asLong(-1);
    }

    /** Dropwizard names the pool's gauges after its class and the data source's name. */
    private static long poolGauge(JsonNode gauges, String suffix) {
        for (Iterator<Map.Entry<String, JsonNode>> it = gauges.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> gauge = it.next();
            if (gauge.getKey().startsWith("io.dropwizard.db.ManagedPooledDataSource.")
                    && gauge.getKey().endsWith(suffix)) {
                return gauge.getValue().path("value").asLong(-1);
            }
        }
        return -1;
    }

    private long rssBytes() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }
}
