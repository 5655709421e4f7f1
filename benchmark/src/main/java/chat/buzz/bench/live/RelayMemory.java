package chat.buzz.bench.live;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relay's memory at one moment, read from outside with the JDK's {@code jcmd} (same user, same
 * machine): the heap in use right after two full collections ({@code GC.run}), so what is left is what
 * is held, not garbage waiting; the native memory committed outside the Java heap by Native Memory
 * Tracking (the relay started with {@code -XX:NativeMemoryTracking=summary}), and its RSS from /proc.
 */
record RelayMemory(long heapAfterGcBytes, long nativeBytes, long rssBytes) {
    private static final Pattern HEAP_USED = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");
    private static final Pattern NMT_TOTAL = Pattern.compile("Total: reserved=\\d+KB, committed=(\\d+)KB");
    private static final Pattern NMT_HEAP = Pattern.compile("Java Heap \\(reserved=\\d+KB, committed=(\\d+)KB\\)");

    static RelayMemory of(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        jcmd(pid, "GC.run");
        long heap = kib(HEAP_USED, jcmd(pid, "GC.heap_info"), "GC.heap_info");
        String nmt = jcmd(pid, "VM.native_memory", "summary");
        long outsideHeap = kib(
                        NMT_TOTAL,
                        nmt,
                        "VM.native_memory summary (start the relay with" + " -XX:NativeMemoryTracking=summary)")
                - kib(NMT_HEAP, nmt, "VM.native_memory summary");
        return new RelayMemory(heap, outsideHeap, rss(pid));
    }

    /** This reading less an earlier one, each figure per {@code connections}, in KiB. */
    String perConnection(RelayMemory before, int connections) {
        return String.format(
                java.util.Locale.ROOT,
                "heap after full GC %.1f KiB, native (NMT, outside the heap) %.1f KiB, RSS %.1f KiB",
                (heapAfterGcBytes - before.heapAfterGcBytes) / 1024.0 / connections,
                (nativeBytes - before.nativeBytes) / 1024.0 / connections,
                (rssBytes - before.rssBytes) / 1024.0 / connections);
    }

    @Override
    public String toString() {
        return String.format(
                java.util.Locale.ROOT,
                "heap after full GC %.1f MiB, native (NMT, outside the heap) %.1f MiB, RSS %.1f MiB",
                heapAfterGcBytes / 1048576.0,
                nativeBytes / 1048576.0,
                rssBytes / 1048576.0);
    }

    private static String jcmd(long pid, String... command) throws IOException, InterruptedException {
        String[] line = new String[command.length + 2];
        line[0] = "jcmd";
        line[1] = Long.toString(pid);
        System.arraycopy(command, 0, line, 2, command.length);
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        String said = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("jcmd " + String.join(" ", command) + " failed: " + said);
        }
        return said;
    }

    private static long kib(Pattern pattern, String text, String what) throws IOException {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            throw new IOException("no figure in " + what + ": " + text);
        }
        return Long.parseLong(matcher.group(1)) * 1024;
    }

    private static long rss(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS for pid " + pid);
    }
}
