package chat.buzz.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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

    /** A process and its children (a postmaster and its backends and workers), in clock ticks. */
    public static long treeTicks(long parent) throws IOException {
        long total = ticks(parent);
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            for (Path process : (Iterable<Path>) processes::iterator) {
                String name = process.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String[] fields = fields(process);
                    if (Long.parseLong(fields[1]) == parent) {
                        total += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    }
                } catch (IOException | RuntimeException ended) {
                    // the process ended between the listing and the read
                }
            }
        }
        return total;
    }
}
