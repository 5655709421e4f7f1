package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * One writer creating artifacts in one channel at a fixed rate through signed {@code POST /events}, open
 * loop: each write is sent on its tick without waiting for the answer to the one before, so a slow relay
 * does not slow the writer down. Each write's send time goes into {@code sentNanos} by event id, for the
 * frames it causes to be timed against; a write the relay did not accept is taken out again, so no frame
 * of it is counted.
 */
public final class OpenLoopWriter {
    private final SignedCalls calls;
    private final NostrKeys keys;
    private final UUID channel;
    private final Map<String, Long> sentNanos;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong inFlight = new AtomicLong();
    private final Timings latencies = new Timings();

    public OpenLoopWriter(SignedCalls calls, NostrKeys keys, UUID channel, Map<String, Long> sentNanos) {
        this.calls = calls;
        this.keys = keys;
        this.channel = channel;
        this.sentNanos = sentNanos;
    }

    /** {@code perSecond} writes a second for {@code seconds}, every event signed before the clock starts. */
    public void run(double perSecond, int seconds) throws InterruptedException {
        int total = (int) Math.round(perSecond * seconds);
        List<Event> events = new ArrayList<>(total);
        for (int i = 0; i < total; i++) {
            events.add(event(i));
        }
        long interval = (long) (1e9 / perSecond);
        long start = System.nanoTime();
        for (int i = 0; i < total; i++) {
            awaitTick(start + i * interval);
            send(events.get(i));
        }
        awaitAnswers();
    }

    /**
     * {@code perSecond} writes a second until {@code stop} says so (asked before every tick), each event
     * signed on its tick before its clock starts: for a run whose length is not known ahead.
     */
    public void runUntil(double perSecond, BooleanSupplier stop) throws InterruptedException {
        long interval = (long) (1e9 / perSecond);
        long start = System.nanoTime();
        for (int i = 0; !stop.getAsBoolean(); i++) {
            awaitTick(start + i * interval);
            send(event(i));
        }
        awaitAnswers();
    }

    public long accepted() {
        return accepted.get();
    }

    public long failed() {
        return failed.get();
    }

    /** Each accepted write's HTTP round trip, commit included. */
    public Timings latencies() {
        return latencies;
    }

    private Event event(int i) {
        return Events.revision(keys, UUID.randomUUID(), channel, null, "open-loop " + i, "open-loop body");
    }

    private static void awaitTick(long tickNanos) throws InterruptedException {
        long wait = tickNanos - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait); // the write schedule, not a race
        }
    }

    private void send(Event event) {
        HttpRequest request = calls.request(keys, "/events", event.toJson());
        inFlight.incrementAndGet();
        sentNanos.put(event.id(), System.nanoTime());
        calls.sendAsync(request).whenComplete((reply, failure) -> {
            if (failure == null && reply.status() == 200) {
                latencies.add(reply.nanos());
                accepted.incrementAndGet();
            } else {
                sentNanos.remove(event.id());
                failed.incrementAndGet();
            }
            inFlight.decrementAndGet();
        });
    }

    private void awaitAnswers() throws InterruptedException {
        while (inFlight.get() > 0) {
            TimeUnit.MILLISECONDS.sleep(10); // the last writes' answers, bounded by the request timeout
        }
    }
}
