package chat.buzz.client;

import chat.buzz.protocol.Event;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.sqlite.SQLiteConfig;

/**
 * The default {@link Store}: one SQLite file in WAL mode. Each mutating call is one transaction that
 * writes the artifacts and the sync state row together, so after a crash the file holds either the
 * page and its cursor or neither. Several processes may open the same file (a {@code list} while a
 * {@code follow} runs); writers wait for each other.
 */
public final class SqliteStore implements Store {
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

    private final Connection connection;

    private SqliteStore(Connection connection) {
        this.connection = connection;
    }

    /**
     * Opens the store, creating the file (owner-only: it holds what the key may read) but never its
     * directory: a mistyped path should fail, not grow a directory tree.
     */
    public static SqliteStore open(Path file) {
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

    /** Opens a store that must exist already: commands that only read it never create an empty one. */
    public static SqliteStore openExisting(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new StoreFailure(
                    "no store at " + file + " (buzz-sync sync creates it; or name it with --store)", null);
        }
        return connect(file);
    }

    private static SqliteStore connect(Path file) {
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
            return new SqliteStore(connection);
        } catch (SQLException e) {
            throw new StoreFailure("cannot open the store " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized Optional<Binding> binding() {
        return read(
                "SELECT relay, pubkey, scope FROM sync_state WHERE id = 1",
                rs -> rs.getString("relay") == null
                        ? Optional.<Binding>empty()
                        : Optional.of(new Binding(
                                rs.getString("relay"), rs.getString("pubkey"), scopeList(rs.getString("scope")))));
    }

    @Override
    public synchronized void rebind(Binding binding) {
        inTransaction(() -> {
            execute("DELETE FROM artifacts");
            execute("DELETE FROM superseded");
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE sync_state SET relay = ?, pubkey = ?, scope = ?, cursor = NULL, policy = NULL, more = 0 WHERE id = 1")) {
                update.setString(1, binding.relay());
                update.setString(2, binding.pubkey());
                update.setString(3, String.join(",", binding.scope()));
                update.executeUpdate();
            }
        });
    }

    @Override
    public synchronized Optional<Position> position() {
        return read(
                "SELECT cursor, policy, more FROM sync_state WHERE id = 1",
                rs -> rs.getString("cursor") == null
                        ? Optional.<Position>empty()
                        : Optional.of(
                                new Position(rs.getString("cursor"), rs.getString("policy"), rs.getInt("more") == 1)));
    }

    @Override
    public synchronized void applyPage(List<Entry> entries, Position next, boolean reset) {
        inTransaction(() -> {
            if (reset) {
                execute("UPDATE artifacts SET unconfirmed = 1");
            }
            ArtifactUpserts.apply(connection, entries, ArtifactUpserts.Source.DISCOVERY);
            try (PreparedStatement state = connection.prepareStatement(
                    "UPDATE sync_state SET cursor = ?, policy = ?, more = ? WHERE id = 1")) {
                state.setString(1, next.cursor());
                state.setString(2, next.policy());
                state.setInt(3, next.more() ? 1 : 0);
                state.executeUpdate();
            }
        });
    }

    @Override
    public synchronized void applyKnownIds(List<Entry> entries, String policy) {
        inTransaction(() -> {
            ArtifactUpserts.apply(connection, entries, ArtifactUpserts.Source.KNOWN_ID_READ);
            try (PreparedStatement state =
                    connection.prepareStatement("UPDATE sync_state SET policy = COALESCE(policy, ?) WHERE id = 1")) {
                state.setString(1, policy);
                state.executeUpdate();
            }
        });
    }

    @Override
    public synchronized void applyLive(List<Entry> entries) {
        inTransaction(() -> ArtifactUpserts.apply(connection, entries, ArtifactUpserts.Source.DISCOVERY));
    }

    @Override
    public synchronized int retainOnly(java.util.Set<String> seen) {
        int[] dropped = new int[1];
        inTransaction(() -> {
            List<String> held = new ArrayList<>();
            try (Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("SELECT d FROM artifacts WHERE known_only = 0")) {
                while (rs.next()) {
                    held.add(rs.getString(1));
                }
            }
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM artifacts WHERE d = ?")) {
                for (String d : held) {
                    if (!seen.contains(d)) {
                        delete.setString(1, d);
                        dropped[0] += delete.executeUpdate();
                    }
                }
            }
        });
        return dropped[0];
    }

    @Override
    public synchronized List<String> unconfirmed() {
        return strings("SELECT d FROM artifacts WHERE unconfirmed = 1 ORDER BY d");
    }

    @Override
    public synchronized void restartSession(boolean unconfirmAll) {
        inTransaction(() -> {
            if (unconfirmAll) {
                execute("UPDATE artifacts SET unconfirmed = 1");
            }
            execute("UPDATE sync_state SET cursor = NULL, more = 0 WHERE id = 1");
        });
    }

    @Override
    public synchronized void replaceAll(List<Entry> heads, String policy) {
        inTransaction(() -> {
            execute("DELETE FROM artifacts");
            ArtifactUpserts.apply(connection, heads, ArtifactUpserts.Source.DISCOVERY);
            try (PreparedStatement state = connection.prepareStatement(
                    "UPDATE sync_state SET cursor = NULL, more = 0, policy = ? WHERE id = 1")) {
                state.setString(1, policy);
                state.executeUpdate();
            }
        });
    }

    @Override
    public synchronized int dropChannel(String h) {
        int[] dropped = new int[1];
        inTransaction(() -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM artifacts WHERE h = ?")) {
                delete.setString(1, h);
                dropped[0] = delete.executeUpdate();
            }
        });
        return dropped[0];
    }

    @Override
    public synchronized Optional<StoredArtifact> get(String d) {
        List<StoredArtifact> found = artifacts("SELECT * FROM artifacts WHERE d = ?", d);
        return found.stream().findFirst();
    }

    @Override
    public synchronized List<StoredArtifact> list(Optional<String> channel) {
        return channel.map(h -> artifacts("SELECT * FROM artifacts WHERE h = ? ORDER BY h, d", h))
                .orElseGet(() -> artifacts("SELECT * FROM artifacts ORDER BY h, d"));
    }

    @Override
    public synchronized List<String> ids() {
        return strings("SELECT d FROM artifacts ORDER BY d");
    }

    @Override
    public synchronized Digest digest() {
        Digest digest = new Digest();
        for (StoredArtifact artifact : artifacts("SELECT * FROM artifacts WHERE known_only = 0")) {
            digest.add(artifact.d(), artifact.headId());
        }
        return digest;
    }

    @Override
    public synchronized void forget(Collection<String> ids) {
        inTransaction(() -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM artifacts WHERE d = ?")) {
                for (String d : ids) {
                    delete.setString(1, d);
                    delete.executeUpdate();
                }
            }
        });
    }

    @Override
    public synchronized void replaceChannelMetadata(Optional<Collection<String>> channels, List<Event> events) {
        inTransaction(() -> ChannelMetadataTable.replace(connection, channels.orElse(null), events));
    }

    @Override
    public synchronized void applyChannelMetadata(List<Event> events) {
        inTransaction(() -> ChannelMetadataTable.apply(connection, events));
    }

    @Override
    public synchronized void dropChannelMetadata(String channel, int kind) {
        inTransaction(() -> ChannelMetadataTable.drop(connection, channel, kind));
    }

    @Override
    public synchronized List<Event> channelMetadata() {
        try {
            return ChannelMetadataTable.all(connection);
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /** For tests and repairs of a damaged file: write a row exactly as given, bypassing every rule. */
    public synchronized void putRaw(StoredArtifact artifact) {
        inTransaction(() -> {
            try (PreparedStatement put = connection.prepareStatement(
                    "INSERT OR REPLACE INTO artifacts (d, h, head, event, known_only, unconfirmed) VALUES (?, ?, ?, ?, ?, 0)")) {
                put.setString(1, artifact.d());
                put.setString(2, artifact.h());
                put.setString(3, artifact.headId());
                put.setString(4, artifact.eventJson());
                put.setInt(5, artifact.knownIdOnly() ? 1 : 0);
                put.executeUpdate();
            }
        });
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new StoreFailure("cannot close the store: " + e.getMessage(), e);
        }
    }

    private List<StoredArtifact> artifacts(String sql, String... parameters) {
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                query.setString(i + 1, parameters[i]);
            }
            List<StoredArtifact> found = new ArrayList<>();
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    found.add(new StoredArtifact(
                            rs.getString("d"),
                            rs.getString("h"),
                            rs.getString("head"),
                            rs.getString("event"),
                            rs.getInt("known_only") == 1));
                }
            }
            return found;
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    private List<String> strings(String sql) {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(1));
            }
            return values;
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    private interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> T read(String sql, RowReader<T> reader) {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return reader.read(rs);
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    private interface Work {
        void run() throws SQLException;
    }

    /**
     * Reads run in autocommit mode and hold no snapshot between calls; writes take the write lock at
     * their start (BEGIN IMMEDIATE) and hold it only until their commit, so other processes' writes wait
     * for each other instead of failing.
     */
    private void inTransaction(Work work) {
        try {
            connection.setAutoCommit(false);
            work.run();
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            try {
                connection.rollback();
                connection.setAutoCommit(true);
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw failure(e);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    private static List<String> scopeList(String scope) {
        return scope == null || scope.isEmpty() ? List.of() : Arrays.asList(scope.split(","));
    }

    private static StoreFailure failure(SQLException e) {
        return new StoreFailure("the store failed: " + e.getMessage(), e);
    }
}
