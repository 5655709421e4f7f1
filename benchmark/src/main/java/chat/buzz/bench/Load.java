package chat.buzz.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's load average beside every figure (docs/benchmarks.md, "the load rule"): a figure taken
 * while other work ran says nothing. bench/lib.sh refuses to start when the 1-minute load is over 1.5
 * unless told to, and then sets {@code BENCH_LOAD_TOO_HIGH=yes}: every figure of that run is marked
 * "load too high".
 */
public final class Load {
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

    /**
     * Whether the run started above the limit (bench/lib.sh said so). The load during a run is printed,
     * not judged: a benchmark raises it itself.
     */
    public static boolean tooHigh() {
        return "yes".equals(System.getenv("BENCH_LOAD_TOO_HIGH"));
    }

    /** What goes beside a figure: {@code [load 0.42 0.40 0.38]}, with ", load too high" when it is. */
    public static String beside() {
        return "[load " + averages() + (tooHigh() ? ", load too high" : "") + "]";
    }

    /** Prints one row of a Markdown table whose last column is the load. */
    public static void row(String format, Object... args) {
        System.out.println(String.format(java.util.Locale.ROOT, format, args) + " " + beside() + " |");
    }

    /** Prints one figure with the load beside it. */
    public static void figure(String format, Object... args) {
        System.out.println(String.format(java.util.Locale.ROOT, format, args) + "  " + beside());
    }
}
