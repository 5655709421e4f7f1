package chat.buzz.bench.fanout;

import chat.buzz.bench.OpenLoopWriter;
import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import chat.buzz.protocol.NostrKeys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The one fan-out load generator: WebSocket subscribers of one channel spread over the given relay
 * instances, and one writer creating artifacts in that channel at a fixed rate through signed
 * {@code POST /events} (open loop: a slow relay does not slow the writer down; the events are signed
 * before the clock starts). Every frame is timed from sending its write to the frame's first part.
 * The same generator drives the relay and the naive relay ({@link NaiveRelay}).
 */
public final class FanOut {
    private static final int WARMUP_SECONDS = 5;

    private final List<String> baseUrls;
    private final boolean authenticate;

    /** @param authenticate whether subscribers answer AUTH (the relay) or subscribe at once (the naive relay) */
    public FanOut(List<String> baseUrls, boolean authenticate) {
        this.baseUrls = baseUrls;
        this.authenticate = authenticate;
    }

    /** What one run measured; frames are every frame of the measured writes, at every subscriber. */
    public record Result(
            int subscribers,
            double writesPerSecond,
            int seconds,
            long writesAccepted,
            long writesFailed,
            Timings writes,
            long framesExpected,
            Timings frames,
            long closedByRelay,
            long noEoseWithin60s) {
        public Map<String, Object> json() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("subscribers", subscribers);
            out.put("writes_per_second", writesPerSecond);
            out.put("seconds", seconds);
            out.put("writes_accepted", writesAccepted);
            out.put("writes_failed", writesFailed);
            out.put("frames_expected", framesExpected);
            out.put("frames_delivered", frames.count());
            out.put("p50_ms", Timings.round(frames.medianMillis()));
            out.put("p99_ms", Timings.round(frames.p99Millis()));
            out.put("max_ms", Timings.round(frames.percentileMillis(1.0)));
            out.put("closed_by_relay", closedByRelay);
            out.put("no_eose_within_60_s", noEoseWithin60s);
            return out;
        }
    }

    /**
     * Some subscribers were refused or closed, or frames never arrived: a latency over the frames that did
     * arrive would describe another load than the one asked for, so the run stops with what the relay said.
     */
    public static final class SubscribersLost extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        SubscribersLost(String message) {
            super(message);
        }
    }

    /** A warm-up of {@value #WARMUP_SECONDS} s of the same writes, then the measured {@code seconds}. */
    public Result run(NostrKeys writer, UUID channel, int subscribers, double writesPerSecond, int seconds)
            throws InterruptedException {
        SignedCalls calls = new SignedCalls(baseUrls.get(0));
        Map<String, Long> sentNanos = new ConcurrentHashMap<>();
        try (FanoutSubscribers subscribed = new FanoutSubscribers(sentNanos, authenticate)) {
            subscribed.connect(calls.http(), baseUrls, channel, subscribers);
            requireNoneLost(subscribed, subscribers, "while subscribing");
            new OpenLoopWriter(calls, writer, channel, new ConcurrentHashMap<>()).run(writesPerSecond, WARMUP_SECONDS);
            OpenLoopWriter measured = new OpenLoopWriter(calls, writer, channel, sentNanos);
            measured.run(writesPerSecond, seconds);
            long expected = measured.accepted() * subscribers;
            awaitFrames(subscribed.frames, expected);
            requireNoneLost(subscribed, subscribers, "during the writes");
            if (subscribed.frames.count() < expected) {
                throw new SubscribersLost(String.format(
                        "%d of %d frames arrived (%d writes accepted x %d subscribers), none closed: the rest did"
                                + " not come within 10 s of the last one or 120 s in all",
                        subscribed.frames.count(), expected, measured.accepted(), subscribers));
            }
            return new Result(
                    subscribers,
                    writesPerSecond,
                    seconds,
                    measured.accepted(),
                    measured.failed(),
                    measured.latencies(),
                    expected,
                    subscribed.frames,
                    subscribed.closedByRelay.get(),
                    subscribed.noEose.get());
        }
    }

    private static void requireNoneLost(FanoutSubscribers subscribed, int subscribers, String when) {
        if (subscribed.lost() > 0) {
            throw new SubscribersLost(String.format(
                    "%d of %d subscribers lost %s: %s",
                    subscribed.lost(), subscribers, when, subscribed.lossSummary()));
        }
    }

    /** Until every expected frame arrived, nothing arrived for 10 s, or 120 s passed: the rest count as late. */
    private static void awaitFrames(Timings frames, long expected) throws InterruptedException {
        long last = -1;
        long stalledSince = System.nanoTime();
        long giveUp = stalledSince + TimeUnit.SECONDS.toNanos(120);
        while (frames.count() < expected && System.nanoTime() < giveUp) {
            long now = frames.count();
            if (now != last) {
                last = now;
                stalledSince = System.nanoTime();
            } else if (System.nanoTime() - stalledSince > TimeUnit.SECONDS.toNanos(10)) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(50); // polling frames still in flight, bounded above
        }
    }
}
