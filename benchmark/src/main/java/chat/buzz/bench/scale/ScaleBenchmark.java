package chat.buzz.bench.scale;

import chat.buzz.bench.Events;
import chat.buzz.bench.Load;
import chat.buzz.bench.RelayOptions;
import chat.buzz.bench.RelaySampler;
import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import chat.buzz.bench.fanout.FanOut;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The reference-shape benchmark for one size: seeds a fresh relay database (by COPY, every event
 * signed), then measures through the relay's HTTP and WebSocket endpoints with signed requests, and
 * writes {@code scale-<size>.json} into the results directory. Run by bench/scale.sh, one fresh relay
 * per size; {@link ScaleReport} turns the files into a table and a chart.
 */
@Command(name = "ScaleBenchmark", mixinStandardHelpOptions = true, description = "The reference shape, one size.")
public final class ScaleBenchmark implements Callable<Integer> {
    private static final int REPEATS = 30;

    @CommandLine.Mixin
    RelayOptions relay;

    @CommandLine.Mixin
    ShapeOptions size;

    @Option(names = "--warmup", defaultValue = "60", description = "warm-up seconds of mixed load")
    int warmupSeconds;

    @Option(names = "--results", defaultValue = "bench/results", description = "where scale-<size>.json goes")
    Path resultsDir;

    @Option(names = "--fanout", defaultValue = "300", description = "WebSocket subscribers (0: skip)")
    int fanOutSubscribers;

    @Option(names = "--clients", defaultValue = "50", description = "clients bootstrapping at once")
    int clients;

    @Option(
            names = "--bootstrap-rounds",
            defaultValue = "5",
            description = "rounds of the SQL floor, both bootstraps and both reloads, each figure the median")
    int bootstrapRounds;

    @Option(names = "--write-seconds", defaultValue = "10", description = "seconds per writes/s figure")
    double writeSeconds;

    private SignedCalls calls;
    private Reads reads;
    private Fixture fixture;
    private final Map<String, Object> results = new LinkedHashMap<>();
    private final Random random = new Random(11);

    public static void main(String[] args) {
        System.exit(new CommandLine(new ScaleBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        relay.requireLoopback();
        calls = new SignedCalls(relay.baseUrl);
        reads = new Reads(calls);
        RelaySampler.PeakHeap peakHeap = relay.sampler(calls.http()).watchPeakHeap();
        results.put("load_average_start", Load.averages());
        run();
        peakHeap.stop();
        results.put("peak_heap_mib", Timings.round(peakHeap.bytes() / (1024.0 * 1024.0)));
        results.put("load_average_end", Load.averages());
        results.put("load_too_high", Load.tooHigh());
        Path out = resultsDir.resolve("scale-" + size.artifacts + ".json");
        Files.createDirectories(out.getParent());
        SignedCalls.JSON.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), results);
        System.out.println("wrote " + out);
        return 0;
    }

    private void run() throws Exception {
        long begin = System.nanoTime();
        fixture = size.seed(NostrKeys.generate());
        results.put("seed_s", Timings.round((System.nanoTime() - begin) / 1e9));
        results.put("artifacts", fixture.shape.artifacts());
        results.put("channels", fixture.shape.channels());
        results.put("memberships", fixture.shape.memberships());
        Map<String, Object> check = SeedCheck.verify(reads, fixture);
        results.putAll(check);
        log("seed check: %s", check);
        new Crowds(calls, fixture).warmUp(warmupSeconds, random);
        log("warmed up for %d s", warmupSeconds);

        Timings information = Timings.repeat(REPEATS, () -> reads.information().nanos());
        results.put("nip11", information.summary());
        Timings trivial =
                Timings.repeat(REPEATS, () -> reads.trivial(fixture.reader).nanos());
        Map<String, Object> trivialOut = trivial.summary();
        trivialOut.put("ratio_to_nip11", Timings.round(trivial.medianMillis() / information.medianMillis()));
        results.put("trivial", trivialOut);
        log(
                "trivial signed request: median %.2f ms, %.2f x the unsigned NIP-11 GET (%.2f ms)",
                trivial.medianMillis(),
                trivial.medianMillis() / information.medianMillis(),
                information.medianMillis());

        Writers writers = new Writers(calls);
        for (int count : List.of(1, 8)) {
            Writers.Result result = writers.run(count, writeSeconds);
            results.put(
                    "writes_" + count,
                    Map.of(
                            "accepted",
                            result.accepted(),
                            "refused",
                            result.refused(),
                            "per_second",
                            Timings.round(result.perSecond())));
            log("writes with %d writer(s): %.0f accepted revisions/s", count, result.perSecond());
        }

        BootstrapRounds rounds = new BootstrapRounds(reads, size.jdbcUrl, fixture).run(bootstrapRounds);
        results.put("sql_floor", rounds.floorSummary());
        results.put("bootstrap", rounds.bootstrap100Summary());
        results.put("bootstrap_1000", rounds.bootstrap1000Summary());
        Map<String, Object> reload1000 = rounds.reloadSummary(1000);
        Map<String, Object> reload100 = rounds.reloadSummary(100);
        results.put("current_reload", reload1000);
        results.put("current_reload_100", reload100);
        long floorNanos = rounds.floor()[2];
        logBootstrap(100, rounds.bootstrap100(), floorNanos);
        logBootstrap(1000, rounds.bootstrap1000(), floorNanos);
        log(
                "current reload, medians of %d rounds: limit 100 %s ms, limit 1000 %s ms",
                bootstrapRounds, reload100.get("ms"), reload1000.get("ms"));

        // The no-change deltas below start from a session that ended right after a burst of writes.
        burst(100);
        Reads.Session bootstrap = reads.session(fixture.reader, null);
        String[] cursor = {bootstrap.cursor()};
        Timings afterBootstrap = deltas(cursor);
        results.put("delta_after_bootstrap", withRatio(afterBootstrap.summary(), afterBootstrap, trivial));
        log(
                "no-change delta right after the bootstrap: median %.2f ms, %s entries first",
                afterBootstrap.medianMillis(), afterBootstrap.summary().get("entries_first"));

        Timings oneChange = new Timings();
        for (int i = 0; i < 5; i++) {
            burst(1);
            Reads.Delta delta = reads.delta(fixture.reader, cursor[0]);
            cursor[0] = delta.cursor();
            oneChange.add(delta.nanos(), delta.entries());
        }
        results.put("delta_one_change", oneChange.summary());

        Timings knownIds = Timings.repeat(
                REPEATS, () -> reads.knownIds(fixture.reader, randomIds(100)).nanos());
        // Against the mean page of the bootstrap of pages of 100: the same number of full heads sent.
        double pageMillis =
                rounds.bootstrap100().millis() / rounds.bootstrap100().pages();
        Map<String, Object> knownOut = knownIds.summary();
        knownOut.put("bootstrap_page_ms", Timings.round(pageMillis));
        knownOut.put("ratio_to_bootstrap_page", Timings.round(knownIds.medianMillis() / pageMillis));
        results.put("known_id_100", knownOut);
        log(
                "known-ID 100: median %.2f ms, %.2f x a bootstrap page of 100",
                knownIds.medianMillis(), knownIds.medianMillis() / pageMillis);

        Aging.ageEverything(size.jdbcUrl);
        Timings afterOverlap = deltas(cursor);
        results.put("delta_after_overlap", withRatio(afterOverlap.summary(), afterOverlap, trivial));
        log("no-change delta after the overlap: median %.2f ms", afterOverlap.medianMillis());

        grant(cursor);
        if (clients > 0) {
            Map<String, Object> crowd = new Crowds(calls, fixture).bootstrapAtOnce(clients);
            results.put("crowd", crowd);
            log("%d clients bootstrapping at once: %s", clients, crowd);
        }
        if (fanOutSubscribers > 0) {
            // Channel 0 is open; the reader creates artifacts in it (open loop, 10 a second for 20 s).
            FanOut.Result fan = new FanOut(List.of(relay.baseUrl), true)
                    .run(fixture.reader, fixture.channels.get(0), fanOutSubscribers, 10, 20);
            results.put("fan_out", fan.json());
            log("fan-out: %s", fan.json());
        }
    }

    /** The reader edits {@code count} seeded artifacts (compare-and-set), as a burst of writes would. */
    private void burst(int count) {
        for (int i = 0; i < count; i++) {
            int index = random.nextInt(fixture.artifactIds.size());
            UUID channel = fixture.channels.get(fixture.artifactChannel.get(index));
            Event event = Events.revision(
                    fixture.reader,
                    fixture.artifactIds.get(index),
                    channel,
                    fixture.headIds.get(index),
                    "edited task",
                    "edited body");
            calls.post(fixture.reader, "/events", event.toJson()).expectOk("an edit");
            fixture.headIds.set(index, event.id());
        }
    }

    private Timings deltas(String[] cursor) {
        Timings timings = new Timings();
        for (int i = 0; i < REPEATS; i++) {
            Reads.Delta delta = reads.delta(fixture.reader, cursor[0]);
            cursor[0] = delta.cursor();
            timings.add(delta.nanos(), delta.entries());
        }
        return timings;
    }

    /** The reader is added to 100 channels holding 500 old artifacts; the next delta session brings them. */
    private void grant(String[] cursor) {
        for (UUID channel : fixture.grantChannels) {
            calls.post(
                            fixture.grantOwner,
                            "/events",
                            fixture.grantOwner
                                    .sign(
                                            Kinds.ADD_MEMBER,
                                            System.currentTimeMillis() / 1000,
                                            List.of(
                                                    List.of(Tags.CHANNEL, channel.toString()),
                                                    List.of(Tags.MEMBER, fixture.reader.publicKeyHex())),
                                            "")
                                    .toJson())
                    .expectOk("adding the reader");
        }
        Reads.Session session = reads.session(fixture.reader, cursor[0]);
        cursor[0] = session.cursor();
        results.put(
                "grant",
                Map.of(
                        "ms",
                        Timings.round(session.millis()),
                        "pages",
                        session.pages(),
                        "entries",
                        session.entries(),
                        "distinct",
                        session.distinct()));
        log(
                "grant of 100 channels: %.0f ms, %d pages, %d entries",
                session.millis(), session.pages(), session.entries());
    }

    private List<String> randomIds(int count) {
        return fixture.randomArtifactIds(random, count);
    }

    private static void logBootstrap(int limit, Reads.Session bootstrap, long floorNanos) {
        log(
                "bootstrap, pages of %d: %.0f ms, %d pages, %d entries (%d distinct), %.1f MB; SQL floor %.0f ms (ratio %.2f)",
                limit,
                bootstrap.millis(),
                bootstrap.pages(),
                bootstrap.entries(),
                bootstrap.distinct(),
                bootstrap.bytes() / 1e6,
                floorNanos / 1e6,
                bootstrap.nanos() / (double) floorNanos);
    }

    private static Map<String, Object> withRatio(Map<String, Object> summary, Timings figure, Timings trivial) {
        summary.put("ratio_to_trivial", Timings.round(figure.medianMillis() / trivial.medianMillis()));
        return summary;
    }

    private static void log(String format, Object... args) {
        Load.figure("[scale] " + format, args);
    }
}
