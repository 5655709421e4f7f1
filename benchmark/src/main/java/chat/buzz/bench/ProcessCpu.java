package chat.buzz.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

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
        String[] fields = fields(process);
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** The fields after the command name; the name in parentheses may hold spaces, they do not. */
    private static String[] fields(Path process) throws IOException {
        String stat = Files.readString(process.resolve("stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /**
     * The PostgreSQL server behind a JDBC URL: its postmaster, the parent of the backend serving this
     * connection. Only that server's processes are counted, not another PostgreSQL on the machine.
     */
    public static long postmaster(String jdbcUrl) throws SQLException, IOException {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            return Long.parseLong(fields(Path.of("/proc", Long.toString(rows.getLong(1))))[1]);
        }
    }

    /**
     * The CPU of each group of a process's live threads, in clock ticks: threads are grouped by name with
     * every number replaced by {@code #} ({@code dw-17} and {@code dw-3} are one group), so that a
     * difference of two readings says where the time went (request threads, the JIT, the collector).
     * The kernel keeps the first 15 characters of a thread's name.
     */
    public static Map<String, Long> threadTicks(long pid) throws IOException {
        Map<String, Long> groups = new TreeMap<>();
        try (Stream<Path> threads = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                try {
                    // A request thread is named after its request while it serves one (dw-17 - POST /query).
                    String name = Files.readString(thread.resolve("comm"))
                            .strip()
                            .replaceAll(" - .*$", "")
                            .replaceAll("\\d+", "#");
                    groups.merge(name, ticks(thread), Long::sum);
                } catch (IOException | RuntimeException ended) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return groups;
    }

    /**
     * The groups of {@link #threadTicks} or {@link #treeTicksByName} that used the most CPU between two
     * readings, largest first, at most {@code top} of them, in seconds. A thread or process that ended in
     * between is missing from both sides.
     */
    public static Map<String, Double> busiest(Map<String, Long> before, Map<String, Long> after, int top) {
        Map<String, Double> busiest = new LinkedHashMap<>();
        after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(top)
                .forEach(e -> busiest.put(e.getKey(), e.getValue() / (double) TICKS_PER_SECOND));
        return busiest;
    }

    /**
     * The CPU of a process and of each group of its children, in clock ticks, grouped by command line
     * with every number replaced by {@code #} and a backend's client address and state left out
     * ({@code postgres: autovacuum worker}, {@code postgres: checkpointer}, {@code postgres: postgres
     * postgres}: the backends), so that a difference of two readings says which kind of process used it.
     */
    public static Map<String, Long> treeTicksByName(long parent) throws IOException {
        Map<String, Long> groups = new TreeMap<>();
        groups.put("(parent)", ticks(parent));
        groups.put("(exited children)", reapedTicks(parent));
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : (Iterable<Path>) processes::iterator) {
                if (!process.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String[] fields = fields(process);
                    if (Long.parseLong(fields[1]) == parent) {
                        String name = Files.readString(process.resolve("cmdline"))
                                .replace('\0', ' ')
                                .replaceAll(" \\S*\\(\\d+\\).*$", "")
                                .replaceAll("\\d+", "#")
                                .strip();
                        groups.merge(name, Long.parseLong(fields[11]) + Long.parseLong(fields[12]), Long::sum);
                    }
                } catch (IOException | RuntimeException ended) {
                    // the process ended between the listing and the read
                }
            }
        }
        return groups;
    }

    /**
     * The CPU of the children a process has waited for after they exited (cutime plus cstime): a
     * postmaster reaps every backend that ends, such as a pooled connection closed while idle.
     */
    private static long reapedTicks(long parent) throws IOException {
        String[] fields = fields(Path.of("/proc", Long.toString(parent)));
        return Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    }

    /**
     * A process and its children (a postmaster and its backends and workers), in clock ticks: the live
     * ones, and those that exited and were reaped; the sum of {@link #treeTicksByName}.
     */
    public static long treeTicks(long parent) throws IOException {
        return total(treeTicksByName(parent));
    }

    /** The ticks of every group of {@link #threadTicks} or {@link #treeTicksByName} together. */
    public static long total(Map<String, Long> groups) {
        return groups.values().stream().mapToLong(Long::longValue).sum();
    }
}
