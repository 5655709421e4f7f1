package chat.buzz.bench;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** Closed-loop load: each thread sends its next request as soon as the previous one answers. */
final class LoadRunner {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Measurement run(Supplier<Scenario> scenarios, int threads, Duration window) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        long deadline = System.nanoTime() + window.toNanos();
        long started = System.nanoTime();
        List<Future<long[]>> workers = new ArrayList<>();
        String name = null;
        for (int t = 0; t < threads; t++) {
            Scenario scenario = scenarios.get();
            name = scenario.name();
            workers.add(pool.submit(() -> loop(scenario, deadline, ok, failed)));
        }
        List<long[]> latencies = new ArrayList<>();
        for (Future<long[]> worker : workers) {
            latencies.add(worker.get());
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        pool.shutdown();
        return new Measurement(
                name,
                threads,
                seconds,
                ok.get(),
                failed.get(),
                latencies.stream().flatMapToLong(java.util.Arrays::stream).toArray());
    }

    private long[] loop(Scenario scenario, long deadline, AtomicLong ok, AtomicLong failed)
            throws InterruptedException {
        long[] samples = new long[1 << 16];
        int count = 0;
        while (System.nanoTime() < deadline) {
            long begin = System.nanoTime();
            try {
                HttpResponse<String> response = http.send(scenario.next(), HttpResponse.BodyHandlers.ofString());
                if (scenario.accept(response.statusCode(), response.body())) {
                    ok.incrementAndGet();
                    if (count == samples.length) {
                        samples = java.util.Arrays.copyOf(samples, samples.length * 2);
                    }
                    samples[count++] = System.nanoTime() - begin;
                } else {
                    failed.incrementAndGet();
                }
            } catch (IOException e) {
                failed.incrementAndGet();
            }
        }
        return java.util.Arrays.copyOf(samples, count);
    }
}
