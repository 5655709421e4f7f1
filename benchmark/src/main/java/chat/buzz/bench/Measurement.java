package chat.buzz.bench;

import java.util.Arrays;

/** Requests completed in a timed window, with their latencies. */
// A holder of samples, never compared or hashed: the array is the data, not a value.
@SuppressWarnings("ArrayRecordComponent")
record Measurement(String scenario, int threads, double seconds, long ok, long failed, long[] latenciesNanos) {

    double throughput() {
        return ok / seconds;
    }

    double percentileMillis(double p) {
        if (latenciesNanos.length == 0) {
            return Double.NaN;
        }
        long[] sorted = latenciesNanos.clone();
        Arrays.sort(sorted);
        int index = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1_000_000.0;
    }
}
