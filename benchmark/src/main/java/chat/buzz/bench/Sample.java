package chat.buzz.bench;

/** One look at the relay process, every 10 s: what the issue asks to watch for growth. */
public record Sample(
        long atSeconds,
        long heapUsedBytes,
        long oldGenUsedBytes,
        long nonHeapUsedBytes,
        long rssBytes,
        long threads,
        long poolActive,
        long poolSize,
        long syncConnections) {

    static String header() {
        return String.format(
                "%6s %10s %10s %10s %10s %8s %11s %9s %9s",
                "t(s)", "heap MiB", "old gen", "nonheap", "RSS MiB", "threads", "pool active", "pool size", "ws conns");
    }

    String line() {
        return String.format(
                "%6d %10.1f %10.1f %10.1f %10.1f %8d %11d %9d %9d",
                atSeconds,
                mib(heapUsedBytes),
                mib(oldGenUsedBytes),
                mib(nonHeapUsedBytes),
                mib(rssBytes),
                threads,
                poolActive,
                poolSize,
                syncConnections);
    }

    static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
