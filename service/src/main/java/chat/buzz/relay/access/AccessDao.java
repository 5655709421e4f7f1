package chat.buzz.relay.access;

import chat.buzz.relay.database.PlainStatements;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Loads what a write's access decision needs, as plain statements on the write's transaction (every
 * write runs them; see {@link PlainStatements}). Channel writes lock the channel row exclusively,
 * artifact writes share-lock it, so a channel edit or deletion and an artifact write on the same
 * channel are ordered, never interleaved.
 */
final class AccessDao {
    private static final String CHANNEL_LOCKED = """
            /* AccessDao.channelLocked */
            SELECT id, visibility = 'open' AS open, unlisted, ttl_seconds, deleted_at IS NOT NULL AS deleted
            FROM channels WHERE id = ? AND community_id = ?
            FOR %s""";

    private static final String CHANNEL_FOR_SHARE = CHANNEL_LOCKED.formatted("SHARE");
    private static final String CHANNEL_FOR_UPDATE = CHANNEL_LOCKED.formatted("UPDATE");

    private static final String ACTIVE_ROLE = """
            /* AccessDao.activeRole */
            SELECT role FROM channel_members WHERE channel_id = ? AND pubkey = ? AND removed_at IS NULL""";

    private final PlainStatements sql;

    private AccessDao(PlainStatements sql) {
        this.sql = sql;
    }

    static AccessDao on(Handle handle) {
        return new AccessDao(PlainStatements.on(handle));
    }

    /** The channel row, locked {@code FOR SHARE} or {@code FOR UPDATE} as {@code lock} says. */
    Optional<ChannelFacts> channelLocked(UUID channel, long communityId, AccessLookup.Lock lock) {
        return sql.first(
                lock == AccessLookup.Lock.SHARED ? CHANNEL_FOR_SHARE : CHANNEL_FOR_UPDATE,
                statement -> {
                    statement.setObject(1, channel);
                    statement.setLong(2, communityId);
                },
                AccessDao::channelFacts);
    }

    Optional<String> activeRole(UUID channel, String pubkey) {
        return sql.first(
                ACTIVE_ROLE,
                statement -> {
                    statement.setObject(1, channel);
                    statement.setString(2, pubkey);
                },
                row -> row.getString("role"));
    }

    private static ChannelFacts channelFacts(ResultSet row) throws SQLException {
        long ttlSeconds = row.getLong("ttl_seconds");
        Long ttl = row.wasNull() ? null : ttlSeconds;
        return new ChannelFacts(
                row.getObject("id", UUID.class),
                row.getBoolean("open"),
                row.getBoolean("unlisted"),
                ttl,
                row.getBoolean("deleted"));
    }
}
