package chat.buzz.relay.artifact;

import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** SQL for artifact heads and the revision ledger. */
@RegisterConstructorMapper(ArtifactHead.class)
public interface ArtifactDao {

    /** Compare-and-set starts here: the row lock makes concurrent edits of one head take turns. */
    @SqlQuery("""
            SELECT d, channel_id, head_event_id, type, deleted FROM artifact_heads
            WHERE community_id = :community AND d = :d FOR UPDATE
            """)
    Optional<ArtifactHead> lockHead(@Bind("community") long communityId, @Bind("d") UUID d);

    /**
     * A create in one round trip: the head, its first ledger entry and the change notice, which PostgreSQL
     * delivers only when the transaction commits.
     *
     * @return 0 when the artifact already exists (a concurrent create won), and then nothing was written
     */
    @SqlQuery("""
            WITH created AS (
                INSERT INTO artifact_heads (community_id, d, channel_id, head_event_id, type)
                VALUES (:community, :d, :channel, :event, :type)
                ON CONFLICT (community_id, d) DO NOTHING
                RETURNING d),
            recorded AS (
                INSERT INTO artifact_revisions (event_id, community_id, d, channel_id, kind, op, prev_event_id, author)
                SELECT :event, :community, :d, :channel, :kind, 'create', NULL, :author FROM created)
            SELECT count(pg_notify(:noticeChannel, :notice)) FROM created
            """)
    int create(
            @Bind("community") long communityId,
            @Bind("d") UUID d,
            @Bind("channel") UUID channel,
            @Bind("event") String eventId,
            @Bind("type") String type,
            @Bind("kind") int kind,
            @Bind("author") String author,
            @Bind("noticeChannel") String noticeChannel,
            @Bind("notice") String notice);

    /**
     * An accepted revision of an existing artifact, in one round trip: the head locked by {@link #lockHead}
     * advances (migration 0076's trigger stamps its change while that column exists), the ledger records the
     * revision, and the change notice is queued for the commit.
     *
     * @return 1, the head advanced
     */
    @SqlQuery("""
            WITH advanced AS (
                UPDATE artifact_heads SET head_event_id = :event, channel_id = :channel, deleted = :deleted
                WHERE community_id = :community AND d = :d
                RETURNING d),
            recorded AS (
                INSERT INTO artifact_revisions (event_id, community_id, d, channel_id, kind, op, prev_event_id, author)
                SELECT :event, :community, :d, :channel, :kind, :op, :prev, :author FROM advanced)
            SELECT count(pg_notify(:noticeChannel, :notice)) FROM advanced
            """)
    int advance(
            @Bind("community") long communityId,
            @Bind("d") UUID d,
            @Bind("channel") UUID channel,
            @Bind("event") String eventId,
            @Bind("deleted") boolean deleted,
            @Bind("kind") int kind,
            @Bind("op") String op,
            @Bind("prev") String prevEventId,
            @Bind("author") String author,
            @Bind("noticeChannel") String noticeChannel,
            @Bind("notice") String notice);

    /**
     * The head step of {@link #create} alone, for tests that stage writes interleaved with reads.
     *
     * @return 0 when the artifact already exists
     */
    @SqlUpdate("""
            INSERT INTO artifact_heads (community_id, d, channel_id, head_event_id, type)
            VALUES (:community, :d, :channel, :head, :type)
            ON CONFLICT (community_id, d) DO NOTHING
            """)
    int createHead(
            @Bind("community") long communityId,
            @Bind("d") UUID d,
            @Bind("channel") UUID channel,
            @Bind("head") String headEventId,
            @Bind("type") String type);

    /** The head step of {@link #advance} alone, for tests that stage writes interleaved with reads. */
    @SqlUpdate("""
            UPDATE artifact_heads SET head_event_id = :head, channel_id = :channel, deleted = :deleted
            WHERE community_id = :community AND d = :d
            """)
    void advanceHead(
            @Bind("community") long communityId,
            @Bind("d") UUID d,
            @Bind("channel") UUID channel,
            @Bind("head") String headEventId,
            @Bind("deleted") boolean deleted);

    @SqlUpdate("""
            INSERT INTO artifact_revisions (event_id, community_id, d, channel_id, kind, op, prev_event_id, author)
            VALUES (:event, :community, :d, :channel, :kind, :op, :prev, :author)
            """)
    void recordRevision(
            @Bind("event") String eventId,
            @Bind("community") long communityId,
            @Bind("d") UUID d,
            @Bind("channel") UUID channel,
            @Bind("kind") int kind,
            @Bind("op") String op,
            @Bind("prev") String prevEventId,
            @Bind("author") String author);

    @SqlQuery(
            "SELECT channel_id FROM artifact_revisions WHERE event_id = :event AND community_id = :community AND kind = :kind")
    Optional<UUID> revisionChannel(
            @Bind("event") String eventId, @Bind("community") long communityId, @Bind("kind") int kind);
}
