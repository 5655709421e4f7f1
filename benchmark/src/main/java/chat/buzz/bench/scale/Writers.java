package chat.buzz.bench.scale;

import chat.buzz.bench.Events;
import chat.buzz.bench.SignedCalls;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** Signed revision writes through POST /events: compare-and-set on each writer's own artifact. */
final class Writers {
    private final SignedCalls calls;

    Writers(SignedCalls calls) {
        this.calls = calls;
    }

    /** A private channel of the writer's own, so its writes stay out of the reader's set. */
    UUID ownChannel(NostrKeys writer) {
        UUID channel = UUID.randomUUID();
        calls.post(
                        writer,
                        "/events",
                        Events.channel(writer, channel, "writer", "private").toJson())
                .expectOk("creating a writer's channel");
        return channel;
    }

    /** @return accepted revisions per second with {@code count} writers for {@code seconds} */
    Result run(int count, double seconds) throws InterruptedException {
        List<NostrKeys> writers = new ArrayList<>();
        List<UUID> channelsOfWriters = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            NostrKeys writer = NostrKeys.generate();
            writers.add(writer);
            channelsOfWriters.add(ownChannel(writer));
        }
        AtomicLong accepted = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            NostrKeys writer = writers.get(i);
            UUID channel = channelsOfWriters.get(i);
            Thread thread = new Thread(() -> {
                UUID d = UUID.randomUUID();
                String head = null;
                int n = 0;
                while (System.nanoTime() < end) {
                    Event event = Events.revision(writer, d, channel, head, "write " + n++, "benchmark body " + n);
                    if (calls.post(writer, "/events", event.toJson()).status() == 200) {
                        accepted.incrementAndGet();
                        head = event.id();
                    } else {
                        refused.incrementAndGet();
                        d = UUID.randomUUID();
                        head = null;
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        long begin = System.nanoTime();
        for (Thread thread : threads) {
            thread.join();
        }
        double elapsed = (System.nanoTime() - begin) / 1e9;
        return new Result(count, accepted.get(), refused.get(), accepted.get() / elapsed);
    }

    record Result(int writers, long accepted, long refused, double perSecond) {}
}
