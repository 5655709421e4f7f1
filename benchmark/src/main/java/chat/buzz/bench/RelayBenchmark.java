package chat.buzz.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Measures a running relay under closed-loop load and reports each scenario as a ratio to the NIP-11
 * baseline measured in the same run, before and after the others, because these machines are noisy.
 * Usage: RelayBenchmark <baseUrl> [warmupSeconds=60] [windowSeconds=20] [threads=4] [incremental=true|false]
 */
public final class RelayBenchmark {
    public static void main(String[] args) throws Exception {
        String baseUrl = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
        Duration warmup = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 60);
        Duration window = Duration.ofSeconds(args.length > 2 ? Long.parseLong(args[2]) : 20);
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        boolean incremental = args.length <= 4 || Boolean.parseBoolean(args[4]);

        Seed seed = Seed.create(baseUrl, 300);
        Scenarios scenarios = new Scenarios(baseUrl, seed);
        Map<String, Supplier<Scenario>> measured = new LinkedHashMap<>();
        measured.put("current-read-100", scenarios.currentRead());
        measured.put("revision-write", scenarios.revisionWrites());
        if (incremental) {
            measured.put("incremental-page-100", scenarios.incrementalBootstrap());
        }
        LoadRunner runner = new LoadRunner();

        // The JVMs (relay and load) need about a minute of load before throughput settles.
        List<Supplier<Scenario>> all = new ArrayList<>(measured.values());
        all.add(0, scenarios.information());
        Duration slice = warmup.dividedBy(all.size());
        for (Supplier<Scenario> scenario : all) {
            runner.run(scenario, threads, slice);
        }

        Measurement before = runner.run(scenarios.information(), threads, window);
        List<Measurement> results = new ArrayList<>();
        for (Supplier<Scenario> scenario : measured.values()) {
            results.add(runner.run(scenario, threads, window));
        }
        Measurement after = runner.run(scenarios.information(), threads, window);
        double baseline = (before.throughput() + after.throughput()) / 2;

        System.out.printf(
                Locale.ROOT,
                "threads=%d window=%ds warmup=%ds baseline drift=%.1f%%%n",
                threads,
                window.toSeconds(),
                warmup.toSeconds(),
                100 * Math.abs(after.throughput() - before.throughput()) / baseline);
        System.out.println("| scenario | ok | failed | req/s | ratio to nip11-info | p50 ms | p99 ms |");
        System.out.println("|---|---|---|---|---|---|---|");
        print(before, baseline);
        for (Measurement result : results) {
            print(result, baseline);
        }
        print(after, baseline);
    }

    private static void print(Measurement m, double baseline) {
        System.out.printf(
                Locale.ROOT,
                "| %s | %d | %d | %.0f | %.3f | %.2f | %.2f |%n",
                m.scenario(),
                m.ok(),
                m.failed(),
                m.throughput(),
                m.throughput() / baseline,
                m.percentileMillis(50),
                m.percentileMillis(99));
    }
}
