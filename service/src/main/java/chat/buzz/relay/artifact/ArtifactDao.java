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

    /** @return 0 when the artifact already exists (a concurrent create won) */
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

    /** Migration 0076's trigger stamps the change (modified_at) while that column exists. */
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
