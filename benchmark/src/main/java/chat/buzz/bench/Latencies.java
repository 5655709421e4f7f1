package chat.buzz.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** {@link Timings} per request kind, with the failures of each kind counted by why. */
final class Latencies {
    private final Map<String, Timings> timings = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Long>> failures = new ConcurrentHashMap<>();

    void ok(String kind, long nanos) {
        timings.computeIfAbsent(kind, k -> new Timings()).add(nanos);
    }

    void failed(String kind, String why) {
        timings.computeIfAbsent(kind, k -> new Timings());
        failures.computeIfAbsent(kind, k -> new ConcurrentHashMap<>()).merge(why, 1L, Long::sum);
    }

    Map<String, Summary> summaries() {
        Map<String, Summary> out = new TreeMap<>();
        timings.forEach((kind, t) -> {
            Map<String, Long> why = new TreeMap<>(failures.getOrDefault(kind, Map.of()));
            long failed = why.values().stream().mapToLong(Long::longValue).sum();
            out.put(kind, new Summary(t.count(), failed, t.medianMillis(), t.p99Millis(), why));
        });
        return out;
    }

    Summary summary(String kind) {
        return summaries().getOrDefault(kind, new Summary(0, 0, Double.NaN, Double.NaN, Map.of()));
    }

    record Summary(long ok, long failed, double p50Millis, double p99Millis, Map<String, Long> failures) {}
}
