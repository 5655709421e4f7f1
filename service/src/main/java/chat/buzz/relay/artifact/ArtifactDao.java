package chat.buzz.relay.artifact;

import chat.buzz.relay.database.PlainStatements;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * SQL for artifact heads and the revision ledger. Plain statements on the write's transaction (every
 * revision runs them; see {@link PlainStatements}).
 */
public final class ArtifactDao {
    /** Compare-and-set starts here: the row lock makes concurrent edits of one head take turns. */
    private static final String LOCK_HEAD = """
            /* ArtifactDao.lockHead */
            SELECT d, channel_id, head_event_id, type, deleted FROM artifact_heads
            WHERE community_id = ? AND d = ? FOR UPDATE""";

    /**
     * A create in one round trip: the head, its first ledger entry and the change notice, which PostgreSQL
     * delivers only when the transaction commits. Counts 0 when the artifact already exists.
     */
    private static final String CREATE = """
            /* ArtifactDao.create */
            WITH created AS (
                INSERT INTO artifact_heads (community_id, d, channel_id, head_event_id, type)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (community_id, d) DO NOTHING
                RETURNING community_id, d, channel_id, head_event_id),
            recorded AS (
                INSERT INTO artifact_revisions (event_id, community_id, d, channel_id, kind, op, prev_event_id, author)
                SELECT head_event_id, community_id, d, channel_id, ?, 'create', NULL, ? FROM created)
            SELECT count(pg_notify(?, ?)) AS notified FROM created""";

    /**
     * An accepted revision of an existing artifact, in one round trip: the head locked by {@link #LOCK_HEAD}
     * advances (migration 0076's trigger stamps its change while that column exists), the ledger records the
     * revision, and the change notice is queued for the commit.
     */
    private static final String ADVANCE = """
            /* ArtifactDao.advance */
            WITH advanced AS (
                UPDATE artifact_heads SET head_event_id = ?, channel_id = ?, deleted = ?
                WHERE community_id = ? AND d = ?
                RETURNING community_id, d, channel_id, head_event_id),
            recorded AS (
                INSERT INTO artifact_revisions (event_id, community_id, d, channel_id, kind, op, prev_event_id, author)
                SELECT head_event_id, community_id, d, channel_id, ?, ?, ?, ? FROM advanced)
            SELECT count(pg_notify(?, ?)) AS notified FROM advanced""";

    /** The head step of {@link #CREATE} alone, for tests that stage writes interleaved with reads. */
    private static final String CREATE_HEAD = """
            /* ArtifactDao.createHead */
            INSERT INTO artifact_heads (community_id, d, channel_id, head_event_id, type)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (community_id, d) DO NOTHING""";

    /** The head step of {@link #ADVANCE} alone, for tests that stage writes interleaved with reads. */
    private static final String ADVANCE_HEAD = """
            /* ArtifactDao.advanceHead */
            UPDATE artifact_heads SET head_event_id = ?, channel_id = ?, deleted = ?
            WHERE community_id = ? AND d = ?""";

    private static final String RECORD_REVISION = """
            /* ArtifactDao.recordRevision */
            INSERT INTO artifact_revisions (event_id, community_id, d, channel_id, kind, op, prev_event_id, author)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)""";

    private static final String REVISION_CHANNEL = """
            /* ArtifactDao.revisionChannel */
            SELECT channel_id FROM artifact_revisions WHERE event_id = ? AND community_id = ? AND kind = ?""";

    private final PlainStatements sql;

    private ArtifactDao(PlainStatements sql) {
        this.sql = sql;
    }

    public static ArtifactDao on(Handle handle) {
        return new ArtifactDao(PlainStatements.on(handle));
    }

    public Optional<ArtifactHead> lockHead(long communityId, UUID d) {
        return sql.first(
                LOCK_HEAD,
                statement -> {
                    statement.setLong(1, communityId);
                    statement.setObject(2, d);
                },
                row -> new ArtifactHead(
                        row.getObject("d", UUID.class),
                        row.getObject("channel_id", UUID.class),
                        row.getString("head_event_id"),
                        row.getString("type"),
                        row.getBoolean("deleted")));
    }

    /** @return 0 when the artifact already exists (a concurrent create won), and then nothing was written */
    public int create(
            long communityId,
            UUID d,
            UUID channel,
            String eventId,
            String type,
            int kind,
            String author,
            String noticeChannel,
            String notice) {
        return sql.first(
                        CREATE,
                        statement -> {
                            statement.setLong(1, communityId);
                            statement.setObject(2, d);
                            statement.setObject(3, channel);
                            statement.setString(4, eventId);
                            statement.setString(5, type);
                            statement.setInt(6, kind);
                            statement.setString(7, author);
                            statement.setString(8, noticeChannel);
                            statement.setString(9, notice);
                        },
                        row -> row.getInt("notified"))
                .orElseThrow();
    }

    /** @return 1, the head advanced */
    public int advance(
            long communityId,
            UUID d,
            UUID channel,
            String eventId,
            boolean deleted,
            int kind,
            String op,
            String prevEventId,
            String author,
            String noticeChannel,
            String notice) {
        return sql.first(
                        ADVANCE,
                        statement -> {
                            statement.setString(1, eventId);
                            statement.setObject(2, channel);
                            statement.setBoolean(3, deleted);
                            statement.setLong(4, communityId);
                            statement.setObject(5, d);
                            statement.setInt(6, kind);
                            statement.setString(7, op);
                            statement.setString(8, prevEventId);
                            statement.setString(9, author);
                            statement.setString(10, noticeChannel);
                            statement.setString(11, notice);
                        },
                        row -> row.getInt("notified"))
                .orElseThrow();
    }

    /** @return 0 when the artifact already exists */
    public int createHead(long communityId, UUID d, UUID channel, String headEventId, String type) {
        return sql.update(CREATE_HEAD, statement -> {
            statement.setLong(1, communityId);
            statement.setObject(2, d);
            statement.setObject(3, channel);
            statement.setString(4, headEventId);
            statement.setString(5, type);
        });
    }

    public void advanceHead(long communityId, UUID d, UUID channel, String headEventId, boolean deleted) {
        sql.update(ADVANCE_HEAD, statement -> {
            statement.setString(1, headEventId);
            statement.setObject(2, channel);
            statement.setBoolean(3, deleted);
            statement.setLong(4, communityId);
            statement.setObject(5, d);
        });
    }

    public void recordRevision(
            String eventId,
            long communityId,
            UUID d,
            UUID channel,
            int kind,
            String op,
            String prevEventId,
            String author) {
        sql.update(RECORD_REVISION, statement -> {
            statement.setString(1, eventId);
            statement.setLong(2, communityId);
            statement.setObject(3, d);
            statement.setObject(4, channel);
            statement.setInt(5, kind);
            statement.setString(6, op);
            statement.setString(7, prevEventId);
            statement.setString(8, author);
        });
    }

    public Optional<UUID> revisionChannel(String eventId, long communityId, int kind) {
        return sql.first(
                REVISION_CHANNEL,
                statement -> {
                    statement.setString(1, eventId);
                    statement.setLong(2, communityId);
                    statement.setInt(3, kind);
                },
                row -> row.getObject("channel_id", UUID.class));
    }
}
