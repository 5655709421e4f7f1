package chat.buzz.bench.scale;

import chat.buzz.bench.Events;
import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** Load from many callers at once on the seeded relay: the warm-up mix, and a crowd of bootstraps. */
final class Crowds {
    private final SignedCalls calls;
    private final Reads reads;
    private final Fixture fixture;

    Crowds(SignedCalls calls, Fixture fixture) {
        this.calls = calls;
        this.reads = new Reads(calls);
        this.fixture = fixture;
    }

    /** About a minute of mixed reads and writes (shorter in CI), so the relay's JIT has settled. */
    void warmUp(int seconds, Random random) throws Exception {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Writers writers = new Writers(calls);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            NostrKeys writer = NostrKeys.generate();
            UUID own = writers.ownChannel(writer);
            Thread thread = new Thread(
                    () -> {
                        String cursor = null;
                        String head = null;
                        UUID d = UUID.randomUUID();
                        while (System.nanoTime() < end) {
                            reads.trivial(fixture.reader);
                            SignedCalls.Reply page = calls.post(
                                    writer,
                                    "/query",
                                    SignedCalls.query("{\"artifact\":\"incremental\",\"limit\":100"
                                            + (cursor == null ? "" : ",\"since\":\"" + cursor + "\"") + "}"));
                            if (page.status() == 200) {
                                cursor = page.json().path("more").asBoolean()
                                        ? page.json().path("cursor").asText()
                                        : null;
                            }
                            List<String> ids;
                            synchronized (random) {
                                ids = fixture.randomArtifactIds(random, 100);
                            }
                            reads.knownIds(writer, ids);
                            Event event = Events.revision(writer, d, own, head, "warm-up", "warm-up body");
                            head = calls.post(writer, "/events", event.toJson()).status() == 200 ? event.id() : null;
                            if (head == null) {
                                d = UUID.randomUUID();
                            }
                        }
                    },
                    "warm-up-" + t);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** Many clients bootstrapping at once against the default bulkhead; each honours Retry-After. */
    Map<String, Object> bootstrapAtOnce(int clients) throws InterruptedException {
        AtomicLong refusals = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicLong entries = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        long begin = System.nanoTime();
        for (int i = 0; i < clients; i++) {
            NostrKeys client = fixture.memberPool.get(i % fixture.memberPool.size());
            Thread thread = new Thread(
                    () -> {
                        try {
                            Reads.Session session = reads.session(client, null);
                            refusals.addAndGet(session.refusals());
                            entries.addAndGet(session.entries());
                        } catch (RuntimeException e) {
                            failures.incrementAndGet();
                        }
                    },
                    "client-" + i);
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        return Map.of(
                "clients",
                clients,
                "total_s",
                Timings.round(seconds),
                "refusals_503",
                refusals.get(),
                "failed",
                failures.get(),
                "entries",
                entries.get());
    }
}
