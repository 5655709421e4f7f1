package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The ceiling of accepted revisions per second: {@code writers} threads, closed loop, each with its own
 * key editing its own artifact in one open channel by compare-and-set (every update names the head it
 * replaces in {@code prev}), signed NIP-98 {@code POST /events}. Run by bench/writes.sh.
 */
@Command(name = "WriteCeiling", mixinStandardHelpOptions = true, description = "Accepted revisions per second.")
public final class WriteCeiling implements Callable<Integer> {
    @Option(names = "--url", required = true, description = "the relay's base URL")
    String baseUrl;

    @Option(names = "--writers", defaultValue = "8", description = "closed-loop writer threads")
    int writers;

    @Option(names = "--warmup", defaultValue = "10", description = "warm-up seconds, not counted")
    int warmupSeconds;

    @Option(names = "--seconds", defaultValue = "20", description = "measured seconds")
    int seconds;

    public static void main(String[] args) {
        System.exit(new CommandLine(new WriteCeiling()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Seed seed = Seed.create(baseUrl, 0);
        SignedCalls calls = new SignedCalls(
                baseUrl,
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());
        Latencies latencies = new Latencies();
        AtomicLong accepted = new AtomicLong();
        long warmupEnds = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupSeconds);
        long ends = warmupEnds + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            Thread thread =
                    new Thread(() -> edit(calls, seed.channel(), warmupEnds, ends, latencies, accepted), "writer-" + i);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        Latencies.Summary summary = latencies.summary("write");
        Load.figure(
                "writers %d: %.0f accepted revisions/s over %d s (p50 %.1f ms, p99 %.1f ms), %d refused %s",
                writers,
                accepted.get() / (double) seconds,
                seconds,
                summary.p50Millis(),
                summary.p99Millis(),
                summary.failed(),
                summary.failures());
        return 0;
    }

    private static void edit(
            SignedCalls calls, UUID channel, long warmupEnds, long ends, Latencies latencies, AtomicLong accepted) {
        NostrKeys keys = NostrKeys.generate();
        UUID d = UUID.randomUUID();
        String head = null;
        while (System.nanoTime() < ends) {
            Event event = Events.revision(keys, d, channel, head, "ceiling task", "ceiling body");
            try {
                SignedCalls.Reply reply = calls.post(keys, "/events", event.toJson());
                boolean measured = System.nanoTime() - reply.nanos() >= warmupEnds;
                if (reply.status() == 200) {
                    head = event.id();
                    if (measured) {
                        latencies.ok("write", reply.nanos());
                        accepted.incrementAndGet();
                    }
                } else if (measured) {
                    latencies.failed("write", String.valueOf(reply.status()));
                }
            } catch (RuntimeException e) {
                latencies.failed("write", e.getClass().getSimpleName());
            }
        }
    }
}
