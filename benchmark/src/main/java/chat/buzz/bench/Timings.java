package chat.buzz.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The benchmarks' one timing type: repeated timings of one figure with the entries each call returned,
 * safe to add to from several threads. Percentiles are nearest-rank over every sample kept.
 */
public final class Timings {
    private long[] nanos = new long[16];
    private long[] entries = new long[16];
    private int count;

    public synchronized void add(long callNanos, long callEntries) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, count * 2);
            entries = Arrays.copyOf(entries, count * 2);
        }
        nanos[count] = callNanos;
        entries[count++] = callEntries;
    }

    public void add(long callNanos) {
        add(callNanos, 0);
    }

    public synchronized int count() {
        return count;
    }

    public double medianMillis() {
        return percentileMillis(0.50);
    }

    public double p99Millis() {
        return percentileMillis(0.99);
    }

    /** @param p 0..1; NaN when nothing was timed */
    public synchronized double percentileMillis(double p) {
        if (count == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p * count);
        return sorted[Math.max(0, Math.min(count - 1, rank - 1))] / 1e6;
    }

    public synchronized Map<String, Object> summary() {
        long[] sortedEntries = Arrays.copyOf(entries, count);
        Arrays.sort(sortedEntries);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("calls", count);
        out.put("median_ms", round(medianMillis()));
        out.put("p99_ms", round(p99Millis()));
        out.put("entries_median", count == 0 ? 0 : sortedEntries[count / 2]);
        out.put("entries_max", count == 0 ? 0 : sortedEntries[count - 1]);
        out.put("entries_first", count == 0 ? 0 : entries[0]);
        return out;
    }

    /** {@code times} calls, each timed by what it returns (its nanoseconds). */
    public static Timings repeat(int times, LongSupplier call) {
        Timings timings = new Timings();
        for (int i = 0; i < times; i++) {
            timings.add(call.getAsLong());
        }
        return timings;
    }

    public static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
