package chat.buzz.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Whether a sampled figure climbs: the median of the last third of the samples against the median of
 * the first third (after the first minute, which is warm-up). Medians, because heap use saws up and
 * down with every collection; a figure "trends upward" when the late median is over 20 % higher.
 * Below five minutes of samples after the warm-up there is nothing to judge: the trends are printed
 * but not counted.
 */
final class Trends {
    static final double THRESHOLD = 1.20;
    static final long WARM_UP_SECONDS = 60;
    static final long MIN_JUDGED_SECONDS = 300;

    private Trends() {}

    /** @param judged false for heap use: it follows each collection's sawtooth, so it is shown, not judged */
    record Trend(String figure, double early, double late, boolean upward, boolean judged) {
        String line() {
            return String.format(
                    "%-12s early median %10.1f  late median %10.1f  ratio %5.2f  %s",
                    figure,
                    early,
                    late,
                    early == 0 ? Double.NaN : late / early,
                    !judged ? "(shown, not judged)" : upward ? "TRENDS UPWARD" : "flat");
        }
    }

    static List<Trend> of(List<Sample> samples) {
        List<Sample> steady =
                samples.stream().filter(s -> s.atSeconds() >= WARM_UP_SECONDS).toList();
        if (steady.size() < 3) {
            steady = samples;
        }
        List<Trend> trends = new ArrayList<>();
        Trend heap = trend("heap MiB", steady, Sample::heapUsedBytes, true);
        trends.add(new Trend(heap.figure(), heap.early(), heap.late(), heap.upward(), false));
        trends.add(trend("old gen MiB", steady, Sample::oldGenUsedBytes, true));
        trends.add(trend("nonheap MiB", steady, Sample::nonHeapUsedBytes, true));
        trends.add(trend("RSS MiB", steady, Sample::rssBytes, true));
        trends.add(trend("threads", steady, Sample::threads, false));
        trends.add(trend("pool active", steady, Sample::poolActive, false));
        trends.add(trend("pool size", steady, Sample::poolSize, false));
        return trends;
    }

    static boolean judged(List<Sample> samples) {
        return samples.get(samples.size() - 1).atSeconds() - WARM_UP_SECONDS >= MIN_JUDGED_SECONDS;
    }

    private static Trend trend(String name, List<Sample> samples, ToLongFunction<Sample> figure, boolean bytes) {
        int third = Math.max(1, samples.size() / 3);
        double early = median(samples.subList(0, third), figure);
        double late = median(samples.subList(samples.size() - third, samples.size()), figure);
        if (bytes) {
            early = Sample.mib((long) early);
            late = Sample.mib((long) late);
        }
        // Small counts (a pool of 2 becoming 3) are noise, not growth.
        boolean upward = late > early * THRESHOLD && late - early >= (bytes ? 16 : 4);
        return new Trend(name, early, late, upward, true);
    }

    private static double median(List<Sample> samples, ToLongFunction<Sample> figure) {
        long[] values = samples.stream().mapToLong(figure).toArray();
        Arrays.sort(values);
        return values.length == 0 ? 0 : values[values.length / 2];
    }
}
