package chat.buzz.bench.scale;

import chat.buzz.bench.Load;
import chat.buzz.bench.RelayOptions;
import chat.buzz.bench.RelaySampler;
import chat.buzz.bench.SignedCalls;
import chat.buzz.protocol.NostrKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The relay's peak heap during one bootstrap with large pages: seeds the reference shape, then one reader
 * bootstraps with {@code limit} (1,000 by default, PROTOCOL 4.1's maximum) to {@code more: false} while
 * the heap is watched two ways: the admin {@code /metrics} heap gauge every 250 ms, and the relay's own
 * flight recording ({@code jdk.GCHeapSummary}: the heap used before and after every collection, so a peak
 * between two samples is not missed). Fails when the bootstrap does not bring every seeded artifact or the
 * relay stops (an OutOfMemoryError under {@code -XX:+ExitOnOutOfMemoryError}). Run by
 * bench/bootstrap-heap.sh.
 */
@Command(name = "BootstrapHeap", mixinStandardHelpOptions = true, description = "Peak relay heap, one bootstrap.")
public final class BootstrapHeap implements Callable<Integer> {
    @CommandLine.Mixin
    RelayOptions relay;

    @CommandLine.Mixin
    ShapeOptions size;

    @Option(names = "--limit", defaultValue = "1000", description = "entries per page")
    int limit;

    @Option(names = "--jfr", description = "where to dump the relay's flight recording (its pid runs one)")
    Path recording;

    public static void main(String[] args) {
        System.exit(new CommandLine(new BootstrapHeap()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        relay.requireLoopback();
        SignedCalls calls = new SignedCalls(relay.baseUrl);
        Fixture fixture = size.seed(NostrKeys.generate());
        RelaySampler.PeakHeap sampled = relay.sampler(calls.http()).watchPeakHeap();
        Instant began = Instant.now();
        Reads.Session session = new Reads(calls).session(fixture.reader, null, limit, page -> {});
        sampled.stop();
        Instant ended = Instant.now();
        if (!ProcessHandle.of(relay.relayPid).map(ProcessHandle::isAlive).orElse(false)) {
            throw new IllegalStateException("the relay stopped during the bootstrap; see its log");
        }
        if (session.distinct() != fixture.artifactIds.size()) {
            throw new IllegalStateException(
                    "the bootstrap brought " + session.distinct() + " of " + fixture.artifactIds.size() + " artifacts");
        }
        Load.figure(
                "bootstrap of %,d artifacts with limit %d: %,d pages, %,d entries, %.1f MB of bodies in %.0f ms",
                fixture.artifactIds.size(),
                limit,
                session.pages(),
                session.entries(),
                session.bytes() / 1e6,
                session.millis());
        Load.figure("relay heap used, peak of /metrics every 250 ms: %.0f MiB", mib(sampled.bytes()));
        if (recording != null) {
            long recorded = peakFromRecording(began, ended);
            if (recorded == 0) {
                Load.figure("relay heap: no collection during the bootstrap, so the recording has no figure of it");
            } else {
                Load.figure("relay heap used, peak of jdk.GCHeapSummary during the bootstrap: %.0f MiB", mib(recorded));
            }
        }
        return 0;
    }

    /** The highest heap use the relay's collections saw between the two instants (one clock: same machine). */
    private long peakFromRecording(Instant began, Instant ended) throws IOException, InterruptedException {
        Process dump = new ProcessBuilder(
                        "jcmd",
                        Long.toString(relay.relayPid),
                        "JFR.dump",
                        "name=bootstrap-heap",
                        "filename=" + recording.toAbsolutePath())
                .redirectErrorStream(true)
                .start();
        String said = new String(dump.getInputStream().readAllBytes());
        if (!dump.waitFor(60, TimeUnit.SECONDS) || dump.exitValue() != 0 || !Files.exists(recording)) {
            throw new IOException("jcmd JFR.dump failed: " + said);
        }
        long peak = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (event.getEventType().getName().equals("jdk.GCHeapSummary")
                        && !event.getStartTime().isBefore(began)
                        && !event.getStartTime().isAfter(ended)) {
                    peak = Math.max(peak, event.getLong("heapUsed"));
                }
            }
        }
        return peak;
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
