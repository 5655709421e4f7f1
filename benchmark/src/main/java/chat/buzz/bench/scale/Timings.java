package chat.buzz.bench.scale;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Repeated timings of one figure, in milliseconds, with the entries each call returned. */
final class Timings {
    private long[] nanos = new long[16];
    private long[] entries = new long[16];
    private int count;

    void add(long callNanos, long callEntries) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, count * 2);
            entries = Arrays.copyOf(entries, count * 2);
        }
        nanos[count] = callNanos;
        entries[count++] = callEntries;
    }

    int count() {
        return count;
    }

    double medianMillis() {
        return percentile(0.50);
    }

    double p99Millis() {
        return percentile(0.99);
    }

    private double percentile(double p) {
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        return count == 0 ? Double.NaN : sorted[(int) Math.min(count - 1, Math.floor(p * count))] / 1e6;
    }

    Map<String, Object> summary() {
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

    static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
