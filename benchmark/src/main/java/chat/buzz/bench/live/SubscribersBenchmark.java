package chat.buzz.bench.live;

import chat.buzz.bench.Load;
import chat.buzz.bench.OpenLoopWriter;
import chat.buzz.bench.ProcessCpu;
import chat.buzz.bench.RelayOptions;
import chat.buzz.bench.RelaySampler;
import chat.buzz.bench.Seed;
import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Many live subscribers on one relay instance: {@code subscribers} authenticated WebSocket subscribers,
 * each with its own key and one sync subscription, all to EOSE; {@code busy} of them read a busy channel
 * and the quiet one, the rest the quiet one only. Then {@code busyRate} writes/s into the busy channel
 * and {@code quietRate} into the quiet one for {@code seconds}. Prints the time until all are live, the
 * relay's heap (after full collections), native memory and RSS per idle subscriber, frames delivered,
 * write-to-frame p50/p99/max, and CPU. Exits 1 when a subscriber was lost or any frame is missing.
 * Run by bench/subscribers.sh.
 */
@Command(name = "SubscribersBenchmark", mixinStandardHelpOptions = true, description = "Many live subscribers.")
public final class SubscribersBenchmark implements Callable<Integer> {
    private static final int WARMUP_SECONDS = 5;

    @CommandLine.Mixin
    RelayOptions relay;

    @Option(names = "--jdbc", description = "the relay's PostgreSQL, for its CPU (none: not counted)")
    String jdbc;

    @Option(names = "--subscribers", defaultValue = "10000", description = "WebSocket subscribers")
    int subscribers;

    @Option(names = "--busy", defaultValue = "1000", description = "of them, the readers of the busy channel")
    int busy;

    @Option(names = "--busy-rate", defaultValue = "10", description = "writes/s into the busy channel")
    double busyRate;

    @Option(names = "--quiet-rate", defaultValue = "1", description = "writes/s into the channel all read")
    double quietRate;

    @Option(names = "--seconds", defaultValue = "60", description = "measured seconds of writes")
    int seconds;

    @Option(names = "--at-once", defaultValue = "64", description = "subscribers between connect and EOSE at once")
    int atOnce;

    @Option(names = "--seeded", defaultValue = "10", description = "artifacts in each channel before they subscribe")
    int seeded;

    public static void main(String[] args) {
        System.exit(new CommandLine(new SubscribersBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        relay.requireLoopback();
        busy = Math.min(busy, subscribers);
        Load.figure(
                "live subscribers: %,d (%,d of them also read the busy channel), %.0f writes/s busy + %.0f writes/s"
                        + " to all, %d s",
                subscribers, busy, busyRate, quietRate, seconds);
        SignedCalls calls = new SignedCalls(relay.baseUrl);
        RelaySampler sampler = relay.sampler(calls.http());
        Seed busyChannel = Seed.create(relay.baseUrl, seeded);
        Seed quietChannel = Seed.create(relay.baseUrl, seeded);
        Map<UUID, Map<String, Long>> measured = Map.of(
                busyChannel.channel(), new ConcurrentHashMap<>(), quietChannel.channel(), new ConcurrentHashMap<>());
        Map<UUID, Timings> byChannel =
                Map.of(busyChannel.channel(), new Timings(), quietChannel.channel(), new Timings());
        Timings frames = new Timings();
        Crowd.FrameSink sink = (channel, sent, received) -> {
            frames.add(received - sent);
            byChannel.get(channel).add(received - sent);
        };
        Cpu cpu = new Cpu(relay.relayPid, jdbc == null ? 0 : ProcessCpu.postmaster(jdbc));

        RelayMemory empty = RelayMemory.of(relay.relayPid);
        // Native memory and RSS include the stacks of the relay's threads; Jetty retires the ones a burst of
        // connections
        // called up after 60 s idle, so the count is printed beside each reading.
        Load.figure(
                "relay with no subscriber: %s, %d threads",
                empty, sampler.sample(0).threads());
        List<UUID> both = List.of(busyChannel.channel(), quietChannel.channel());
        List<UUID> quietOnly = List.of(quietChannel.channel());
        try (Crowd crowd = new Crowd(relay.baseUrl, measured, sink)) {
            cpu.start();
            Crowd.Joined joined =
                    crowd.join(subscribers, i -> i < busy ? both : quietOnly, atOnce, Duration.ofSeconds(120));
            Load.figure(
                    "all live: %,d of %,d in %.1f s (at most %d at once); connect to EOSE p50 %.0f ms, p99 %.0f ms;"
                            + " snapshot %d to %d events; %s",
                    joined.live(),
                    subscribers,
                    joined.seconds(),
                    atOnce,
                    joined.untilLive().medianMillis(),
                    joined.untilLive().p99Millis(),
                    joined.snapshotMin(),
                    joined.snapshotMax(),
                    cpu.report());
            if (crowd.lost() > 0) {
                return failed(crowd.lost() + " of " + subscribers + " subscribers lost while subscribing: "
                        + crowd.lossSummary());
            }
            Load.figure(
                    "relay's own count of sync connections: %d",
                    sampler.sample(0).syncConnections());
            RelayMemory idle = RelayMemory.of(relay.relayPid);
            Load.figure(
                    "relay with %,d idle subscribers: %s, %d threads, %d open files",
                    subscribers, idle, sampler.sample(0).threads(), openFiles(relay.relayPid));
            Load.figure(
                    "per idle subscriber: %s (target: heap at most 64 KiB)", idle.perConnection(empty, subscribers));
            System.gc(); // the load generator's own share, to size its -Xmx for more subscribers
            Load.figure(
                    "load generator heap after a full GC: %.0f MiB for %,d subscribers",
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0, subscribers);

            OpenLoopWriter busyWriter = new OpenLoopWriter(
                    calls, busyChannel.keys(), busyChannel.channel(), measured.get(busyChannel.channel()));
            OpenLoopWriter quietWriter = new OpenLoopWriter(
                    calls, quietChannel.keys(), quietChannel.channel(), measured.get(quietChannel.channel()));
            writeBoth(
                    new OpenLoopWriter(calls, busyChannel.keys(), busyChannel.channel(), new ConcurrentHashMap<>()),
                    new OpenLoopWriter(calls, quietChannel.keys(), quietChannel.channel(), new ConcurrentHashMap<>()),
                    WARMUP_SECONDS);
            RelaySampler.PeakHeap peak = sampler.watchPeakHeap();
            cpu.start();
            writeBoth(busyWriter, quietWriter, seconds);
            long expected = busyWriter.accepted() * busy + quietWriter.accepted() * subscribers;
            crowd.awaitFrames(expected, Duration.ofSeconds(120));
            peak.stop();
            Load.figure(
                    "writes: busy %d accepted, %d failed; quiet %d accepted, %d failed; write p50 %.1f ms, p99 %.1f ms;"
                            + " %s",
                    busyWriter.accepted(),
                    busyWriter.failed(),
                    quietWriter.accepted(),
                    quietWriter.failed(),
                    busyWriter.latencies().medianMillis(),
                    busyWriter.latencies().p99Millis(),
                    cpu.report());
            Load.figure(
                    "frames %,d of %,d (%.3f %%); write-to-frame p50 %.1f ms, p99 %.1f ms, max %.1f ms (target: p99 at"
                            + " most 250 ms)",
                    crowd.frames(),
                    expected,
                    expected == 0 ? 0 : 100.0 * crowd.frames() / expected,
                    frames.medianMillis(),
                    frames.p99Millis(),
                    frames.percentileMillis(1.0));
            Timings busyFrames = byChannel.get(busyChannel.channel());
            Timings quietFrames = byChannel.get(quietChannel.channel());
            Load.figure(
                    "busy channel (%,d readers) p50 %.1f ms, p99 %.1f ms; channel all read (%,d) p50 %.1f ms,"
                            + " p99 %.1f ms",
                    busy,
                    busyFrames.medianMillis(),
                    busyFrames.p99Millis(),
                    subscribers,
                    quietFrames.medianMillis(),
                    quietFrames.p99Millis());
            Load.figure(
                    "relay heap: peak %.0f MiB during the writes (admin /metrics every 250 ms); after them %s"
                            + " (target: at most 1 GiB)",
                    peak.bytes() / 1048576.0, RelayMemory.of(relay.relayPid));
            if (crowd.lost() > 0) {
                return failed(crowd.lost() + " subscribers lost during the writes: " + crowd.lossSummary());
            }
            String shortfall =
                    crowd.shortfall(scope -> (scope.size() == 2 ? busyWriter.accepted() : 0) + quietWriter.accepted());
            if (shortfall != null) {
                return failed(shortfall);
            }
            return 0;
        }
    }

    private static long openFiles(long pid) throws IOException {
        try (Stream<Path> files = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return files.count();
        }
    }

    private static int failed(String why) {
        System.err.println("live subscribers FAILED: " + why);
        return 1;
    }

    /** Both writers at once, each on its own schedule, for {@code seconds}. */
    private void writeBoth(OpenLoopWriter busyWriter, OpenLoopWriter quietWriter, int seconds)
            throws InterruptedException {
        Thread quiet = new Thread(
                () -> {
                    try {
                        quietWriter.run(quietRate, seconds);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "quiet-writer");
        quiet.start();
        busyWriter.run(busyRate, seconds);
        quiet.join();
    }

    /** The CPU of the relay, its PostgreSQL (0: not counted) and this load generator since {@link #start}. */
    static final class Cpu {
        private final long relayPid;
        private final long postmaster;
        private long wallStart;
        private long relayStart;
        private long postgresStart;
        private long generatorStart;

        Cpu(long relayPid, long postmaster) {
            this.relayPid = relayPid;
            this.postmaster = postmaster;
        }

        void start() throws IOException {
            wallStart = System.nanoTime();
            relayStart = ProcessCpu.ticks(relayPid);
            postgresStart = postmaster == 0 ? 0 : ProcessCpu.treeTicks(postmaster);
            generatorStart = generatorNanos();
        }

        String report() throws IOException {
            double wall = (System.nanoTime() - wallStart) / 1e9;
            double relayCpu = (ProcessCpu.ticks(relayPid) - relayStart) / (double) ProcessCpu.TICKS_PER_SECOND;
            double postgres = postmaster == 0
                    ? Double.NaN
                    : (ProcessCpu.treeTicks(postmaster) - postgresStart) / (double) ProcessCpu.TICKS_PER_SECOND;
            double generator = (generatorNanos() - generatorStart) / 1e9;
            return String.format(
                    java.util.Locale.ROOT,
                    "CPU in %.1f s: relay %.0f %%, PostgreSQL %.0f %%, load generator %.0f %% of one core",
                    wall,
                    100 * relayCpu / wall,
                    100 * postgres / wall,
                    100 * generator / wall);
        }

        private static long generatorNanos() {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getProcessCpuTime();
        }
    }
}
