package chat.buzz.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The CPU a process has used, from {@code /proc/<pid>/stat}: user plus system time, in clock ticks. */
public final class ProcessCpu {
    /** The kernel's USER_HZ: /proc counts CPU time in hundredths of a second. */
    public static final long TICKS_PER_SECOND = 100;

    private ProcessCpu() {}

    public static long ticks(long pid) throws IOException {
        return ticks(Path.of("/proc", Long.toString(pid)));
    }

    /** @param process a process's directory under /proc */
    public static long ticks(Path process) throws IOException {
        String stat = Files.readString(process.resolve("stat"));
        // The command name in parentheses may hold spaces; the fields after it do not.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }
}
