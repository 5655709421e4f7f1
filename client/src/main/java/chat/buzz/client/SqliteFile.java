package chat.buzz.client;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;

/** Opens a store's SQLite file: who may read it, how writers wait for each other, and its tables. */
final class SqliteFile {
    private static final String SCHEMA = """
            CREATE TABLE IF NOT EXISTS artifacts (
                d           TEXT PRIMARY KEY,
                h           TEXT,
                head        TEXT NOT NULL,
                event       TEXT NOT NULL,
                known_only  INTEGER NOT NULL DEFAULT 0,
                unconfirmed INTEGER NOT NULL DEFAULT 0);
            CREATE INDEX IF NOT EXISTS artifacts_by_channel ON artifacts (h, d);
            CREATE TABLE IF NOT EXISTS sync_state (
                id     INTEGER PRIMARY KEY CHECK (id = 1),
                relay  TEXT,
                pubkey TEXT,
                scope  TEXT,
                cursor TEXT,
                policy TEXT,
                more   INTEGER NOT NULL DEFAULT 0);
            INSERT OR IGNORE INTO sync_state (id) VALUES (1);
            CREATE TABLE IF NOT EXISTS superseded (
                d  TEXT NOT NULL,
                id TEXT NOT NULL,
                PRIMARY KEY (d, id));
            """;

    private SqliteFile() {}

    /**
     * Creates the file (owner-only: it holds what the key may read) but never its directory: a
     * mistyped path should fail, not grow a directory tree.
     */
    static Connection create(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new StoreFailure(
                    "cannot open the store " + file + ": the directory " + parent + " does not exist (create it first)",
                    null);
        }
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException existing) {
            // opened as it is
        } catch (UnsupportedOperationException | IOException e) {
            // not POSIX, or a race with another process creating it: SQLite creates or opens it below
        }
        return connect(file);
    }

    /** A file that must exist already: commands that only read a store never create an empty one. */
    static Connection existing(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new StoreFailure(
                    "no store at " + file + " (buzz-sync sync creates it; or name it with --store)", null);
        }
        return connect(file);
    }

    private static Connection connect(Path file) {
        try {
            SQLiteConfig config = new SQLiteConfig();
            // A deferred transaction that reads and then writes fails with SQLITE_BUSY_SNAPSHOT when another
            // connection (a `list`, a second client) wrote in between; taking the write lock first makes it wait.
            config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
            config.setBusyTimeout(30_000);
            Connection connection =
                    DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), config.toProperties());
            try (Statement statement = connection.createStatement()) {
                statement.execute("PRAGMA journal_mode = WAL");
                // FULL: a committed page survives a power cut too, not only a killed process.
                statement.execute("PRAGMA synchronous = FULL");
                for (String sql : SCHEMA.split(";")) {
                    if (!sql.isBlank()) {
                        statement.execute(sql);
                    }
                }
                statement.execute(ChannelMetadataTable.SCHEMA);
            }
            return connection;
        } catch (SQLException e) {
            throw new StoreFailure("cannot open the store " + file + ": " + e.getMessage(), e);
        }
    }
}
