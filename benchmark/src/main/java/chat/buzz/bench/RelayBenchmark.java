package chat.buzz.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Measures a running relay under closed-loop load and reports each scenario as a ratio to the NIP-11
 * baseline measured in the same run, before and after the others, because these machines are noisy.
 * Run by bench/run.sh.
 */
@Command(
        name = "RelayBenchmark",
        mixinStandardHelpOptions = true,
        description = "Closed-loop load, as ratios to NIP-11.")
public final class RelayBenchmark implements Callable<Integer> {
    @Option(names = "--url", required = true, description = "the relay's base URL")
    String baseUrl;

    @Option(names = "--warmup", defaultValue = "60", description = "warm-up seconds, spread over the scenarios")
    long warmupSeconds;

    @Option(names = "--window", defaultValue = "20", description = "seconds per measured scenario")
    long windowSeconds;

    @Option(names = "--threads", defaultValue = "4", description = "closed-loop threads")
    int threads;

    @Option(names = "--incremental", defaultValue = "true", arity = "1", description = "measure incremental pages")
    boolean incremental;

    public static void main(String[] args) {
        System.exit(new CommandLine(new RelayBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Duration warmup = Duration.ofSeconds(warmupSeconds);
        Duration window = Duration.ofSeconds(windowSeconds);
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

        Load.figure(
                "threads=%d window=%ds warmup=%ds baseline drift=%.1f%%",
                threads,
                window.toSeconds(),
                warmup.toSeconds(),
                100 * Math.abs(after.throughput() - before.throughput()) / baseline);
        System.out.println("| scenario | ok | failed | req/s | ratio to nip11-info | p50 ms | p99 ms | load |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        print(before, baseline);
        for (Measurement result : results) {
            print(result, baseline);
        }
        print(after, baseline);
        return 0;
    }

    private static void print(Measurement m, double baseline) {
        Load.row(
                "| %s | %d | %d | %.0f | %.3f | %.2f | %.2f |",
                m.scenario(),
                m.ok(),
                m.failed(),
                m.throughput(),
                m.throughput() / baseline,
                m.latencies().percentileMillis(0.50),
                m.latencies().percentileMillis(0.99));
    }
}
