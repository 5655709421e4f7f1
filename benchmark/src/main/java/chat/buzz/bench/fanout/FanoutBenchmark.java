package chat.buzz.bench.fanout;

import chat.buzz.bench.Load;
import chat.buzz.bench.ProcessCpu;
import chat.buzz.bench.Seed;
import chat.buzz.bench.Timings;
import chat.buzz.protocol.NostrKeys;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * WebSocket fan-out, the relay against a naive in-memory relay ({@link NaiveRelay}) in one run, driven
 * by the same load generator ({@link FanOut}): subscribers of one open channel and one writer creating
 * artifacts in it at a fixed rate. Prints, per target, write-to-frame p50/p99/max over every frame,
 * frames delivered against expected and each process's CPU, then the relay's p50 and p99 as ratios to
 * the naive relay's. Run by bench/fanout.sh.
 */
@Command(name = "FanoutBenchmark", mixinStandardHelpOptions = true, description = "Fan-out: relay against naive.")
public final class FanoutBenchmark implements Callable<Integer> {
    @Option(names = "--url", required = true, split = ",", description = "the relay instances' base URLs")
    List<String> relayUrls;

    @Option(names = "--relay-pid", required = true, split = ",", description = "their process ids, in order")
    List<Long> relayPids;

    @Option(names = "--naive-url", description = "the naive relay's base URL (none: the relay alone)")
    String naiveUrl;

    @Option(names = "--naive-pid", description = "the naive relay's process id")
    long naivePid;

    @Option(names = "--subscribers", defaultValue = "300", description = "WebSocket subscribers")
    int subscribers;

    @Option(names = "--rate", defaultValue = "10", description = "writes per second")
    double rate;

    @Option(names = "--seconds", defaultValue = "20", description = "measured seconds of writes")
    int seconds;

    public static void main(String[] args) {
        System.exit(new CommandLine(new FanoutBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        try {
            return compare();
        } catch (FanOut.SubscribersLost e) {
            System.err.println("fan-out FAILED, no figures: " + e.getMessage());
            return 1;
        }
    }

    private Integer compare() throws Exception {
        Load.figure(
                "fan-out: %d subscribers, %.0f writes/s for %d s, relay on %d instance(s)%s",
                subscribers, rate, seconds, relayUrls.size(), naiveUrl == null ? "" : ", then the naive relay");
        Seed seed = Seed.create(relayUrls.get(0), 0);
        FanOut.Result relay = measure("relay", new FanOut(relayUrls, true), seed.keys(), seed.channel(), relayPids);
        if (naiveUrl == null) {
            return 0;
        }
        FanOut.Result naive = measure(
                "naive relay",
                new FanOut(List.of(naiveUrl), false),
                NostrKeys.generate(),
                UUID.randomUUID(),
                List.of(naivePid));
        Load.figure(
                "relay / naive relay, same load generator, same run: p50 %.2f x, p99 %.2f x",
                relay.frames().medianMillis() / naive.frames().medianMillis(),
                relay.frames().p99Millis() / naive.frames().p99Millis());
        return 0;
    }

    private FanOut.Result measure(String name, FanOut fanOut, NostrKeys writer, UUID channel, List<Long> pids)
            throws Exception {
        List<Long> cpuBefore = ticks(pids);
        long generatorBefore = generatorCpuNanos();
        long started = System.nanoTime();
        FanOut.Result result;
        try {
            result = fanOut.run(writer, channel, subscribers, rate, seconds);
        } catch (FanOut.SubscribersLost e) {
            throw new FanOut.SubscribersLost(name + ": " + e.getMessage());
        }
        double wall = (System.nanoTime() - started) / 1e9;
        List<Long> cpuAfter = ticks(pids);
        Timings frames = result.frames();
        Load.figure(
                "%s: writes %d accepted, %d failed (write p50 %.1f ms, p99 %.1f ms); frames %d of %d (%.2f %%), %d closed,"
                        + " %d without EOSE",
                name,
                result.writesAccepted(),
                result.writesFailed(),
                result.writes().medianMillis(),
                result.writes().p99Millis(),
                frames.count(),
                result.framesExpected(),
                result.framesExpected() == 0 ? 0 : 100.0 * frames.count() / result.framesExpected(),
                result.closedByRelay(),
                result.noEoseWithin60s());
        Load.figure(
                "%s: write-to-frame, every frame: p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                name, frames.medianMillis(), frames.p99Millis(), frames.percentileMillis(1.0));
        for (int i = 0; i < pids.size(); i++) {
            double cpu = (cpuAfter.get(i) - cpuBefore.get(i)) / (double) ProcessCpu.TICKS_PER_SECOND;
            Load.figure(
                    "%s: process %d (pid %d) CPU %.1f s in %.1f s (subscribing, warm-up and writes) = %.0f %% of one core",
                    name, i + 1, pids.get(i), cpu, wall, 100 * cpu / wall);
        }
        Load.figure(
                "%s: load generator CPU %.0f %% of one core",
                name, 100 * (generatorCpuNanos() - generatorBefore) / 1e9 / wall);
        return result;
    }

    private static List<Long> ticks(List<Long> pids) throws Exception {
        List<Long> ticks = new ArrayList<>();
        for (long pid : pids) {
            ticks.add(ProcessCpu.ticks(pid));
        }
        return ticks;
    }

    private static long generatorCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
