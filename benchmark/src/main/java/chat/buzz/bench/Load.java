package chat.buzz.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's load average beside every figure (docs/benchmarks.md, "Load"): a figure taken while
 * other work ran says nothing. bench/lib.sh refuses to start above 1.5 unless told to, and then sets
 * {@code BENCH_LOAD_TOO_HIGH=yes}: every figure of that run is marked "load too high".
 */
public final class Load {
    public static final double MAX = 1.5;

    private Load() {}

    /** The 1, 5 and 15-minute load averages, as {@code uptime} prints them. */
    public static String averages() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static boolean tooHigh() {
        return tooHigh(averages());
    }

    private static boolean tooHigh(String averages) {
        return "yes".equals(System.getenv("BENCH_LOAD_TOO_HIGH")) || Double.parseDouble(averages.split(" ")[0]) > MAX;
    }

    /** What goes beside a figure: {@code [load 0.42 0.40 0.38]}, with ", load too high" when it is. */
    public static String beside() {
        String averages = averages();
        return "[load " + averages + (tooHigh(averages) ? ", load too high" : "") + "]";
    }

    /** Prints one figure with the load beside it. */
    public static void figure(String format, Object... args) {
        System.out.println(String.format(java.util.Locale.ROOT, format, args) + "  " + beside());
    }
}
