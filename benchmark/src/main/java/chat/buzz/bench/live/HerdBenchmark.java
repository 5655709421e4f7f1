package chat.buzz.bench.live;

import chat.buzz.bench.Load;
import chat.buzz.bench.OpenLoopWriter;
import chat.buzz.bench.ProcessCpu;
import chat.buzz.bench.RelayOptions;
import chat.buzz.bench.Seed;
import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Live delivery under a herd: a few live subscribers of one channel time every frame of a steady write
 * rate into it (open loop), first without a herd (the baseline), then while {@code herd} subscribers
 * with fresh keys connect, AUTH and REQ a sync subscription of another channel seeded with
 * {@code artifacts} artifacts, each to EOSE. A frame belongs to the phase its write was sent in. Prints
 * both phases' write-to-frame p50/p99, the ratio of the p99s, and the herd's own progress. Exits 1 when
 * a live subscriber missed a frame, or a member of the herd was lost or did not get the whole snapshot.
 * Run by bench/herd.sh.
 */
@Command(name = "HerdBenchmark", mixinStandardHelpOptions = true, description = "Live latency under a herd.")
public final class HerdBenchmark implements Callable<Integer> {
    private static final int WARMUP_SECONDS = 5;

    @CommandLine.Mixin
    RelayOptions relay;

    @Option(names = "--jdbc", description = "the relay's PostgreSQL, for its CPU (none: not counted)")
    String jdbc;

    @Option(names = "--herd", defaultValue = "2000", description = "fresh-key subscribers in the herd")
    int herd;

    @Option(names = "--artifacts", defaultValue = "200", description = "artifacts in the channel the herd reads")
    int artifacts;

    @Option(names = "--live", defaultValue = "5", description = "live subscribers timing frames")
    int live;

    @Option(names = "--rate", defaultValue = "10", description = "writes/s into the live channel")
    double rate;

    @Option(names = "--baseline-seconds", defaultValue = "20", description = "seconds of writes before the herd")
    int baselineSeconds;

    @Option(
            names = "--at-once",
            defaultValue = "0",
            description = "herd members between connect and EOSE at once (0: all)")
    int atOnce;

    public static void main(String[] args) {
        System.exit(new CommandLine(new HerdBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        relay.requireLoopback();
        int window = atOnce <= 0 ? herd : Math.min(atOnce, herd);
        Load.figure(
                "herd: %d live subscribers, %.0f writes/s; %d s baseline, then %,d fresh keys (%d at once) each"
                        + " AUTH + REQ of a channel of %d artifacts",
                live, rate, baselineSeconds, herd, window, artifacts);
        SignedCalls calls = new SignedCalls(relay.baseUrl);
        Seed herdChannel = Seed.create(relay.baseUrl, artifacts);
        Seed liveChannel = Seed.create(relay.baseUrl, 0);
        Map<String, Long> sent = new ConcurrentHashMap<>();
        Timings baseline = new Timings();
        Timings during = new Timings();
        // When the baseline starts, the herd starts and the herd is all live; a frame is of the phase its write was
        // sent in, and the warm-up's and those after the herd are of none.
        AtomicLongArray phases = new AtomicLongArray(new long[] {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE});
        Crowd.FrameSink sink = (channel, sentNanos, received) -> {
            if (sentNanos >= phases.get(1) && sentNanos <= phases.get(2)) {
                during.add(received - sentNanos);
            } else if (sentNanos >= phases.get(0) && sentNanos < phases.get(1)) {
                baseline.add(received - sentNanos);
            }
        };
        SubscribersBenchmark.Cpu cpu =
                new SubscribersBenchmark.Cpu(relay.relayPid, jdbc == null ? 0 : ProcessCpu.postmaster(jdbc));
        // The live subscribers and the herd have a client (and a selector thread) each, so the herd's
        // snapshots do not queue the live frames in the load generator.
        try (Crowd liveCrowd = new Crowd(relay.baseUrl, Map.of(liveChannel.channel(), sent), sink);
                Crowd herdCrowd = new Crowd(relay.baseUrl, Map.of(), (channel, s, r) -> {})) {
            liveCrowd.join(live, i -> List.of(liveChannel.channel()), live, Duration.ofSeconds(60));
            if (liveCrowd.lost() > 0) {
                return failed("live subscribers lost while subscribing: " + liveCrowd.lossSummary());
            }
            OpenLoopWriter writer = new OpenLoopWriter(calls, liveChannel.keys(), liveChannel.channel(), sent);
            AtomicBoolean stop = new AtomicBoolean();
            Thread writing = new Thread(
                    () -> {
                        try {
                            writer.runUntil(rate, stop::get);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "live-writer");
            writing.start();
            TimeUnit.SECONDS.sleep(WARMUP_SECONDS); // the warm-up's length, not a race
            phases.set(0, System.nanoTime());
            TimeUnit.SECONDS.sleep(baselineSeconds); // the baseline's length
            cpu.start();
            phases.set(1, System.nanoTime());
            Crowd.Joined joined =
                    herdCrowd.join(herd, i -> List.of(herdChannel.channel()), window, Duration.ofSeconds(300));
            phases.set(2, System.nanoTime());
            String herdCpu = cpu.report();
            TimeUnit.SECONDS.sleep(1); // one more second of writes after the herd, not measured
            stop.set(true);
            writing.join();
            liveCrowd.awaitFrames(writer.accepted() * live, Duration.ofSeconds(60));

            Load.figure(
                    "the herd: %,d of %,d live in %.1f s; connect to EOSE p50 %.0f ms, p99 %.0f ms; snapshot %d to %d"
                            + " events; %s",
                    joined.live(),
                    herd,
                    joined.seconds(),
                    joined.untilLive().medianMillis(),
                    joined.untilLive().p99Millis(),
                    joined.snapshotMin(),
                    joined.snapshotMax(),
                    herdCpu);
            Load.figure(
                    "writes %d accepted, %d failed; write p50 %.1f ms, p99 %.1f ms",
                    writer.accepted(),
                    writer.failed(),
                    writer.latencies().medianMillis(),
                    writer.latencies().p99Millis());
            Load.figure(
                    "live write-to-frame before the herd: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d frames)",
                    baseline.medianMillis(), baseline.p99Millis(), baseline.percentileMillis(1.0), baseline.count());
            Load.figure(
                    "live write-to-frame during the herd: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d frames)",
                    during.medianMillis(), during.p99Millis(), during.percentileMillis(1.0), during.count());
            Load.figure(
                    "during / before: p50 %.2f x, p99 %.2f x (targets: p99 during at most 100 ms and 3 x before)",
                    during.medianMillis() / baseline.medianMillis(), during.p99Millis() / baseline.p99Millis());
            if (herdCrowd.lost() > 0 || joined.live() < herd) {
                return failed(herdCrowd.lost() + " of " + herd + " herd members lost: " + herdCrowd.lossSummary());
            }
            if (joined.snapshotMin() != artifacts) {
                return failed("a herd member's snapshot had " + joined.snapshotMin() + " events, not " + artifacts);
            }
            if (liveCrowd.lost() > 0) {
                return failed("live subscribers lost: " + liveCrowd.lossSummary());
            }
            String shortfall = liveCrowd.shortfall(scope -> writer.accepted());
            return shortfall == null ? 0 : failed("live subscribers: " + shortfall);
        }
    }

    private static int failed(String why) {
        System.err.println("herd FAILED: " + why);
        return 1;
    }
}
