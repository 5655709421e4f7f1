package chat.buzz.relay.fleet;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The last {@code capacity} per-beat differences of the instance's running totals. Bounded, so the heartbeat
 * row stays small however long the instance runs.
 */
final class TrafficSeries {
    private final int capacity;
    private final Deque<TrafficSample> samples = new ArrayDeque<>();
    private TrafficSample lastTotals;

    TrafficSeries(int capacity) {
        this.capacity = capacity;
    }

    /** Adds the difference to the previous totals (nothing on the first call) and returns the series. */
    synchronized List<TrafficSample> record(Instant at, long requests, long unavailable, long resets) {
        TrafficSample totals = new TrafficSample(at, requests, unavailable, resets);
        if (lastTotals != null) {
            samples.addLast(new TrafficSample(
                    at,
                    requests - lastTotals.requests(),
                    unavailable - lastTotals.unavailable(),
                    resets - lastTotals.resets()));
            while (samples.size() > capacity) {
                samples.removeFirst();
            }
        }
        lastTotals = totals;
        return List.copyOf(samples);
    }
}
