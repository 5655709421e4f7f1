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
        Timings latencies = new Timings();
        List<Future<?>> workers = new ArrayList<>();
        String name = null;
        for (int t = 0; t < threads; t++) {
            Scenario scenario = scenarios.get();
            name = scenario.name();
            workers.add(pool.submit(() -> loop(scenario, deadline, ok, failed, latencies)));
        }
        for (Future<?> worker : workers) {
            worker.get();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        pool.shutdown();
        return new Measurement(name, threads, seconds, ok.get(), failed.get(), latencies);
    }

    private Void loop(Scenario scenario, long deadline, AtomicLong ok, AtomicLong failed, Timings latencies)
            throws InterruptedException {
        while (System.nanoTime() < deadline) {
            long begin = System.nanoTime();
            try {
                HttpResponse<String> response = http.send(scenario.next(), HttpResponse.BodyHandlers.ofString());
                if (scenario.accept(response.statusCode(), response.body())) {
                    ok.incrementAndGet();
                    latencies.add(System.nanoTime() - begin);
                } else {
                    failed.incrementAndGet();
                }
            } catch (IOException e) {
                failed.incrementAndGet();
            }
        }
        return null;
    }
}
