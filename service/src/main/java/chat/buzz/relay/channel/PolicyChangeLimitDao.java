package chat.buzz.relay.channel;

import java.util.Optional;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;

/**
 * The SQL of the policy-change limit. It counts the rows of policy_stamp_advances (migration 0013,
 * written in the same transaction as every advance), so every relay instance on the database sees
 * the same count and a refused write leaves nothing to count. Times are the database's.
 */
interface PolicyChangeLimitDao {

    /** Serialises count-then-write per community until the transaction ends, so two writers cannot both take the last slot. */
    @SqlQuery("SELECT 1 FROM pg_advisory_xact_lock(:namespace, :key)")
    int lockCommunity(@Bind("namespace") int namespace, @Bind("key") int key);

    /**
     * Seconds until this actor's count in the window drops below {@code limit}: the limit-th newest
     * advance leaves the window then. Empty when the actor is under the limit. Served by
     * policy_stamp_advances_actor_idx (migration 0090).
     */
    @SqlQuery("""
            SELECT CAST(ceil(extract(epoch FROM advanced_at + make_interval(secs => :windowSeconds)
                                                 - statement_timestamp())) AS bigint)
            FROM policy_stamp_advances
            WHERE community_id = :community AND actor = :actor
              AND advanced_at > statement_timestamp() - make_interval(secs => :windowSeconds)
            ORDER BY advanced_at DESC
            OFFSET :limit - 1 LIMIT 1
            """)
    Optional<Long> secondsUntilActorAdmitted(
            @Bind("community") long community,
            @Bind("actor") String actor,
            @Bind("limit") int limit,
            @Bind("windowSeconds") double windowSeconds);

    /** As {@link #secondsUntilActorAdmitted} for the whole community; served by policy_stamp_advances_time_idx (0013). */
    @SqlQuery("""
            SELECT CAST(ceil(extract(epoch FROM advanced_at + make_interval(secs => :windowSeconds)
                                                 - statement_timestamp())) AS bigint)
            FROM policy_stamp_advances
            WHERE community_id = :community
              AND advanced_at > statement_timestamp() - make_interval(secs => :windowSeconds)
            ORDER BY advanced_at DESC
            OFFSET :limit - 1 LIMIT 1
            """)
    Optional<Long> secondsUntilCommunityAdmitted(
            @Bind("community") long community, @Bind("limit") int limit, @Bind("windowSeconds") double windowSeconds);
}
