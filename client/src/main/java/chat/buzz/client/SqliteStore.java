package chat.buzz.client;

import chat.buzz.protocol.Event;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The default {@link Store}: one SQLite file in WAL mode ({@link SqliteFile}). Each mutating call is
 * one transaction that writes the artifacts and the sync state row together, so after a crash the
 * file holds either the page and its cursor or neither. Several processes may open the same file (a
 * {@code list} while a {@code follow} runs); writers wait for each other.
 */
public final class SqliteStore implements Store {
    private final StoreConnection store;

    private SqliteStore(StoreConnection store) {
        this.store = store;
    }

    /**
     * Opens the store, creating the file (owner-only: it holds what the key may read) but never its
     * directory: a mistyped path should fail, not grow a directory tree.
     */
    public static SqliteStore open(Path file) {
        return new SqliteStore(new StoreConnection(SqliteFile.create(file)));
    }

    /** Opens a store that must exist already: commands that only read it never create an empty one. */
    public static SqliteStore openExisting(Path file) {
        return new SqliteStore(new StoreConnection(SqliteFile.existing(file)));
    }

    @Override
    public synchronized Optional<Binding> binding() {
        return store.row(
                "SELECT relay, pubkey, scope FROM sync_state WHERE id = 1",
                rs -> rs.getString("relay") == null
                        ? Optional.<Binding>empty()
                        : Optional.of(new Binding(
                                rs.getString("relay"), rs.getString("pubkey"), scopeList(rs.getString("scope")))));
    }

    @Override
    public synchronized void rebind(Binding binding) {
        store.inTransaction(() -> {
            store.update("DELETE FROM artifacts");
            store.update("DELETE FROM superseded");
            store.update(
                    "UPDATE sync_state SET relay = ?, pubkey = ?, scope = ?, cursor = NULL, policy = NULL, more = 0 WHERE id = 1",
                    binding.relay(),
                    binding.pubkey(),
                    String.join(",", binding.scope()));
        });
    }

    @Override
    public synchronized Optional<Position> position() {
        return store.row(
                "SELECT cursor, policy, more FROM sync_state WHERE id = 1",
                rs -> rs.getString("cursor") == null
                        ? Optional.<Position>empty()
                        : Optional.of(
                                new Position(rs.getString("cursor"), rs.getString("policy"), rs.getInt("more") == 1)));
    }

    @Override
    public synchronized void applyPage(List<Entry> entries, Position next, boolean reset) {
        store.inTransaction(() -> {
            if (reset) {
                store.update("UPDATE artifacts SET unconfirmed = 1");
            }
            ArtifactUpserts.apply(store.jdbc(), entries, ArtifactUpserts.Source.DISCOVERY);
            store.update(
                    "UPDATE sync_state SET cursor = ?, policy = ?, more = ? WHERE id = 1",
                    next.cursor(),
                    next.policy(),
                    next.more() ? 1 : 0);
        });
    }

    @Override
    public synchronized void applyKnownIds(List<Entry> entries, String policy) {
        store.inTransaction(() -> {
            ArtifactUpserts.apply(store.jdbc(), entries, ArtifactUpserts.Source.KNOWN_ID_READ);
            store.update("UPDATE sync_state SET policy = COALESCE(policy, ?) WHERE id = 1", policy);
        });
    }

    @Override
    public synchronized void applyLive(List<Entry> entries) {
        store.inTransaction(() -> ArtifactUpserts.apply(store.jdbc(), entries, ArtifactUpserts.Source.DISCOVERY));
    }

    @Override
    public synchronized int retainOnly(Set<String> seen) {
        int[] dropped = new int[1];
        store.inTransaction(() -> {
            for (String d : store.strings("SELECT d FROM artifacts WHERE known_only = 0")) {
                if (!seen.contains(d)) {
                    dropped[0] += store.update("DELETE FROM artifacts WHERE d = ?", d);
                }
            }
        });
        return dropped[0];
    }

    @Override
    public synchronized List<String> unconfirmed() {
        return store.strings("SELECT d FROM artifacts WHERE unconfirmed = 1 ORDER BY d");
    }

    @Override
    public synchronized void restartSession(boolean unconfirmAll) {
        store.inTransaction(() -> {
            if (unconfirmAll) {
                store.update("UPDATE artifacts SET unconfirmed = 1");
            }
            store.update("UPDATE sync_state SET cursor = NULL, more = 0 WHERE id = 1");
        });
    }

    @Override
    public synchronized void replaceAll(List<Entry> heads, String policy) {
        store.inTransaction(() -> {
            store.update("DELETE FROM artifacts");
            ArtifactUpserts.apply(store.jdbc(), heads, ArtifactUpserts.Source.DISCOVERY);
            store.update("UPDATE sync_state SET cursor = NULL, more = 0, policy = ? WHERE id = 1", policy);
        });
    }

    @Override
    public synchronized int dropChannel(String h) {
        int[] dropped = new int[1];
        store.inTransaction(() -> dropped[0] = store.update("DELETE FROM artifacts WHERE h = ?", h));
        return dropped[0];
    }

    @Override
    public synchronized Optional<StoredArtifact> get(String d) {
        return store.rows("SELECT * FROM artifacts WHERE d = ?", SqliteStore::artifact, d).stream()
                .findFirst();
    }

    @Override
    public synchronized List<StoredArtifact> list(Optional<String> channel) {
        return channel.map(
                        h -> store.rows("SELECT * FROM artifacts WHERE h = ? ORDER BY h, d", SqliteStore::artifact, h))
                .orElseGet(() -> store.rows("SELECT * FROM artifacts ORDER BY h, d", SqliteStore::artifact));
    }

    @Override
    public synchronized List<String> ids() {
        return store.strings("SELECT d FROM artifacts ORDER BY d");
    }

    @Override
    public synchronized Digest digest() {
        Digest digest = new Digest();
        for (StoredArtifact artifact :
                store.rows("SELECT * FROM artifacts WHERE known_only = 0", SqliteStore::artifact)) {
            digest.add(artifact.d(), artifact.headId());
        }
        return digest;
    }

    @Override
    public synchronized void forget(Collection<String> ids) {
        store.inTransaction(() -> {
            for (String d : ids) {
                store.update("DELETE FROM artifacts WHERE d = ?", d);
            }
        });
    }

    @Override
    public synchronized void replaceChannelMetadata(Optional<Collection<String>> channels, List<Event> events) {
        store.inTransaction(() -> ChannelMetadataTable.replace(store.jdbc(), channels.orElse(null), events));
    }

    @Override
    public synchronized void applyChannelMetadata(List<Event> events) {
        store.inTransaction(() -> ChannelMetadataTable.apply(store.jdbc(), events));
    }

    @Override
    public synchronized void dropChannelMetadata(String channel, int kind) {
        store.inTransaction(() -> ChannelMetadataTable.drop(store.jdbc(), channel, kind));
    }

    @Override
    public synchronized List<Event> channelMetadata() {
        try {
            return ChannelMetadataTable.all(store.jdbc());
        } catch (SQLException e) {
            throw StoreConnection.failure(e);
        }
    }

    /** For tests and repairs of a damaged file: write a row exactly as given, bypassing every rule. */
    public synchronized void putRaw(StoredArtifact artifact) {
        store.inTransaction(() -> store.update(
                "INSERT OR REPLACE INTO artifacts (d, h, head, event, known_only, unconfirmed) VALUES (?, ?, ?, ?, ?, 0)",
                artifact.d(),
                artifact.h(),
                artifact.headId(),
                artifact.eventJson(),
                artifact.knownIdOnly() ? 1 : 0));
    }

    @Override
    public synchronized void close() {
        store.close();
    }

    private static StoredArtifact artifact(ResultSet rs) throws SQLException {
        return new StoredArtifact(
                rs.getString("d"),
                rs.getString("h"),
                rs.getString("head"),
                rs.getString("event"),
                rs.getInt("known_only") == 1);
    }

    private static List<String> scopeList(String scope) {
        return scope == null || scope.isEmpty() ? List.of() : Arrays.asList(scope.split(","));
    }
}
