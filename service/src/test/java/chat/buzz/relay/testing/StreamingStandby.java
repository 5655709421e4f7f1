package chat.buzz.relay.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A PostgreSQL hot standby streaming from a test server, for the reads-on-standbys tests. CI makes one of
 * the machine's server with {@code scripts/test-standby.sh} and names it in {@value #URL_VARIABLE}; without
 * it, {@link #shared()} makes one of the embedded test server. {@link #of} makes one of a server of the
 * test's own, which the test may promote or stop. Made the way a base backup is made over SQL
 * ({@code pg_backup_start}, a copy of the files, {@code pg_backup_stop}'s label), then started in standby
 * mode with the primary's address, so nothing but the embedded binaries is needed.
 */
public final class StreamingStandby implements AutoCloseable {
    static final String URL_VARIABLE = "BUZZ_TEST_STANDBY_URL";
    private static final Set<String> NOT_COPIED =
            Set.of("postmaster.pid", "postmaster.opts", "epg-lock", "standby.signal", "backup_label");
    private static final Set<String> COPIED_EMPTY = Set.of("pg_wal", "pg_replslot", "pg_stat_tmp", "pg_dynshmem");
    private static StreamingStandby shared;

    private final String serverUrl;
    private final EmbeddedPostgres server;
    private final Path dataDirectory;

    private StreamingStandby(String serverUrl, EmbeddedPostgres server, Path dataDirectory) {
        this.serverUrl = serverUrl;
        this.server = server;
        this.dataDirectory = dataDirectory;
    }

    /** The standby of the server {@link TestDatabases} creates databases on, one per JVM. */
    public static synchronized StreamingStandby shared() {
        if (shared == null) {
            String configured = System.getenv(URL_VARIABLE);
            if (configured != null && !configured.isBlank()) {
                shared = new StreamingStandby(configured, null, null);
                // A run that was killed while replay was paused would leave every later one waiting.
                shared.resumeReplay();
            } else if (TestServer.choose(System.getenv()) == TestServer.EMBEDDED) {
                shared = of(TestDatabases.serverUrl());
                Runtime.getRuntime().addShutdownHook(new Thread(shared::close));
            } else {
                throw new IllegalStateException(TestServer.URL_VARIABLE + " names a server this JVM cannot copy: set "
                        + URL_VARIABLE + " to a standby of it as .ci/run does (scripts/test-standby.sh start)");
            }
        }
        return shared;
    }

    /** A standby of its own of the server at {@code primaryServerUrl}, whose files this JVM can read. */
    public static StreamingStandby of(String primaryServerUrl) {
        try {
            Path copy = Files.createTempDirectory("buzz-standby");
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwx------"));
            baseBackup(primaryServerUrl, copy);
            Files.writeString(copy.resolve("standby.signal"), "");
            Files.writeString(
                    copy.resolve("postgresql.auto.conf"),
                    "\nprimary_conninfo = 'host=127.0.0.1 port=" + port(primaryServerUrl) + " user="
                            + TestDatabases.USER + "'\nhot_standby = on\nhot_standby_feedback = on\n",
                    StandardOpenOption.APPEND);
            EmbeddedPostgres server = EmbeddedPostgres.builder()
                    .setDataDirectory(copy)
                    .setCleanDataDirectory(false)
                    .setPort(freePort())
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .start();
            return new StreamingStandby(server.getJdbcUrl(TestDatabases.USER, "postgres"), server, copy);
        } catch (IOException e) {
            throw new UncheckedIOException("could not make a standby of " + primaryServerUrl, e);
        }
    }

    /** The URL of {@code primaryDatabaseUrl}'s database on this standby. */
    public String urlOf(String primaryDatabaseUrl) {
        return TestDatabases.withDatabase(serverUrl, TestDatabases.databaseName(primaryDatabaseUrl));
    }

    public void pauseReplay() {
        execute("SELECT pg_wal_replay_pause()");
    }

    public void resumeReplay() {
        execute("SELECT pg_wal_replay_resume()");
    }

    /** Ends recovery: the standby becomes a primary of a new timeline, as a failover makes it. */
    public void promote() {
        requireOwn("promote");
        execute("SELECT pg_promote(true, 60)");
        // The timeline in pg_control (part of the database epoch) changes at the checkpoint after promotion.
        execute("CHECKPOINT");
    }

    /** A fast shutdown: every open connection breaks and new ones are refused. */
    public void stop() {
        requireOwn("stop");
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the standby has replayed everything the primary had written when this was called. */
    public void awaitCaughtUpWith(String primaryDatabaseUrl, Duration within) {
        long target = position(primaryDatabaseUrl, "pg_current_wal_insert_lsn()");
        Instant deadline = Instant.now().plus(within);
        while (position(serverUrl, "pg_last_wal_replay_lsn()") < target) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the standby did not catch up with the primary within " + within);
            }
            Thread.onSpinWait();
        }
    }

    @Override
    public void close() {
        if (server == null) {
            return;
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // stopped already
        }
        deleteTree(dataDirectory);
    }

    private void requireOwn(String what) {
        if (server == null) {
            throw new IllegalStateException("cannot " + what + " the shared standby " + serverUrl);
        }
    }

    private void execute(String sql) {
        try (Connection connection = DriverManager.getConnection(serverUrl, TestDatabases.USER, "");
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("on the standby: " + sql, e);
        }
    }

    private static long position(String url, String lsn) {
        try (Connection connection = DriverManager.getConnection(url, TestDatabases.USER, "");
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT CAST(" + lsn + " - CAST('0/0' AS pg_lsn) AS bigint)")) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("reading " + lsn, e);
        }
    }

    /** The files of the running server, copied between pg_backup_start and pg_backup_stop on one session. */
    private static void baseBackup(String serverUrl, Path copy) throws IOException {
        try (Connection connection = DriverManager.getConnection(serverUrl, TestDatabases.USER, "");
                Statement statement = connection.createStatement()) {
            Path data;
            try (ResultSet row = statement.executeQuery("SHOW data_directory")) {
                row.next();
                data = Path.of(row.getString(1));
            }
            statement.execute("SELECT pg_backup_start('buzz test standby', true)");
            copyTree(data, copy);
            try (ResultSet row = statement.executeQuery("SELECT labelfile FROM pg_backup_stop(false)")) {
                row.next();
                Files.writeString(copy.resolve("backup_label"), row.getString(1), StandardCharsets.UTF_8);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("base backup of " + serverUrl + " failed", e);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path relative = from.relativize(path);
                if (relative.toString().isEmpty() || NOT_COPIED.contains(relative.toString())) {
                    continue;
                }
                if (relative.getNameCount() > 1
                        && COPIED_EMPTY.contains(relative.getName(0).toString())) {
                    if (Files.isDirectory(path)) {
                        Files.createDirectories(to.resolve(relative));
                    }
                    continue;
                }
                Path target = to.resolve(relative);
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    copyIfStillThere(path, target);
                }
            }
        }
    }

    /** A file the server removed while the copy ran (a temporary one) is left out: the backup's WAL replays it. */
    private static void copyIfStillThere(Path file, Path target) throws IOException {
        try {
            Files.copy(file, target);
        } catch (java.nio.file.NoSuchFileException gone) {
            // removed since the walk listed it
        }
    }

    private static int port(String jdbcUrl) {
        String rest = jdbcUrl.substring("jdbc:postgresql://".length());
        int colon = rest.indexOf(':');
        int slash = rest.indexOf('/');
        return colon < 0 || colon > slash ? 5432 : Integer.parseInt(rest.substring(colon + 1, slash));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the next reboot clears what is left
        }
    }
}
