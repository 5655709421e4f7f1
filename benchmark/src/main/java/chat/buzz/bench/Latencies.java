package chat.buzz.bench;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Latencies and failures per request kind, kept whole: a soak of half an hour is a few million longs. */
final class Latencies {
    private final Map<String, Recorder> kinds = new ConcurrentHashMap<>();

    void ok(String kind, long nanos) {
        kinds.computeIfAbsent(kind, k -> new Recorder()).add(nanos);
    }

    void failed(String kind, String why) {
        Recorder recorder = kinds.computeIfAbsent(kind, k -> new Recorder());
        recorder.failed.incrementAndGet();
        recorder.failures.merge(why, 1L, Long::sum);
    }

    Map<String, Summary> summaries() {
        Map<String, Summary> out = new TreeMap<>();
        kinds.forEach((kind, recorder) -> out.put(kind, recorder.summary()));
        return out;
    }

    record Summary(long ok, long failed, double p50Millis, double p99Millis, Map<String, Long> failures) {}

    private static final class Recorder {
        private long[] samples = new long[1 << 14];
        private int count;
        final AtomicLong failed = new AtomicLong();
        final Map<String, Long> failures = new ConcurrentHashMap<>();

        synchronized void add(long nanos) {
            if (count == samples.length) {
                samples = Arrays.copyOf(samples, samples.length * 2);
            }
            samples[count++] = nanos;
        }

        synchronized Summary summary() {
            long[] sorted = Arrays.copyOf(samples, count);
            Arrays.sort(sorted);
            return new Summary(
                    count, failed.get(), percentile(sorted, 0.50), percentile(sorted, 0.99), new TreeMap<>(failures));
        }

        private static double percentile(long[] sorted, double p) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e6;
        }
    }
}
