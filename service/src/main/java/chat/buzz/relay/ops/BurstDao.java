package chat.buzz.relay.ops;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.sqlobject.config.RegisterConstructorMapper;
import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

/** The SQL of policy-reset bursts: stamp advances, per-minute counters and the timeline over both. */
public interface BurstDao {
    record Bucket(
            Instant start,
            long resetsServed,
            long capacityRejections,
            long timeouts,
            long peakResetsPerMinute,
            long policyAdvances) {}

    record Advance(long communityId, UUID channelId, String change, String actor, Instant advancedAt) {}

    record CommunityRow(long id, String name) {}

    record RefusalBucket(Instant start, long refused) {}

    record AsEntriesBucket(Instant start, long changes) {}

    record ChangeAsEntries(
            long settingsId,
            UUID channelId,
            String channelName,
            String change,
            String actor,
            Instant changedAt,
            long entriesSent) {}

    @SqlUpdate("""
            INSERT INTO policy_stamp_advances (community_id, channel_id, change, actor)
            VALUES (:community, :channel, :change, :actor)""")
    void recordAdvance(
            @Bind("community") long community,
            @Bind("channel") UUID channel,
            @Bind("change") String change,
            @Bind("actor") String actor);

    /** Adds to the minute's counters of this instance; several flushes of one minute add up. */
    @SqlUpdate("""
            INSERT INTO sync_statistics (community_id, minute, instance_id, resets_served, capacity_rejections, timeouts)
            VALUES (:community, :minute, :instance, :resets, :capacity, :timeouts)
            ON CONFLICT (community_id, minute, instance_id) DO UPDATE SET
                resets_served = sync_statistics.resets_served + EXCLUDED.resets_served,
                capacity_rejections = sync_statistics.capacity_rejections + EXCLUDED.capacity_rejections,
                timeouts = sync_statistics.timeouts + EXCLUDED.timeouts""")
    void add(
            @Bind("community") long community,
            @Bind("minute") Instant minute,
            @Bind("instance") String instance,
            @Bind("resets") long resets,
            @Bind("capacity") long capacity,
            @Bind("timeouts") long timeouts);

    /** Adds to the minute's refused policy changes of this instance; several flushes of one minute add up. */
    @SqlUpdate("""
            INSERT INTO policy_change_refusals (community_id, minute, instance_id, refused)
            VALUES (:community, :minute, :instance, :refused)
            ON CONFLICT (community_id, minute, instance_id) DO UPDATE SET
                refused = policy_change_refusals.refused + EXCLUDED.refused""")
    void addRefusals(
            @Bind("community") long community,
            @Bind("minute") Instant minute,
            @Bind("instance") String instance,
            @Bind("refused") long refused);

    /** False after a rollback to before-incremental, which drops the table (migration 0091). */
    @SqlQuery("SELECT to_regclass('public.policy_change_refusals') IS NOT NULL")
    boolean refusalsKept();

    /** Refused policy changes of all instances in buckets of {@code bucketSeconds} from {@code since}. */
    @SqlQuery("""
            SELECT date_bin(make_interval(secs => :bucketSeconds), minute, :since) AS start, sum(refused) AS refused
            FROM policy_change_refusals WHERE community_id = :community AND minute >= :since GROUP BY 1 ORDER BY 1""")
    @RegisterConstructorMapper(RefusalBucket.class)
    List<RefusalBucket> refusals(
            @Bind("community") long community,
            @Bind("since") Instant since,
            @Bind("bucketSeconds") double bucketSeconds);

    /**
     * Buckets of {@code bucketSeconds} from {@code since}: totals over all instances, the busiest
     * single minute for the burst test, and how many stamp advances fell in the bucket.
     */
    @SqlQuery("""
            WITH minutes AS (
                SELECT minute, sum(resets_served) AS resets, sum(capacity_rejections) AS capacity, sum(timeouts) AS timeouts
                FROM sync_statistics WHERE community_id = :community AND minute >= :since GROUP BY minute
            ), stats AS (
                SELECT date_bin(make_interval(secs => :bucketSeconds), minute, :since) AS start,
                       sum(resets) AS resets_served, sum(capacity) AS capacity_rejections, sum(timeouts) AS timeouts,
                       max(resets) AS peak_resets_per_minute
                FROM minutes GROUP BY 1
            ), advances AS (
                SELECT date_bin(make_interval(secs => :bucketSeconds), advanced_at, :since) AS start, count(*) AS policy_advances
                FROM policy_stamp_advances WHERE community_id = :community AND advanced_at >= :since GROUP BY 1
            )
            SELECT coalesce(s.start, a.start) AS start, coalesce(s.resets_served, 0) AS resets_served,
                   coalesce(s.capacity_rejections, 0) AS capacity_rejections, coalesce(s.timeouts, 0) AS timeouts,
                   coalesce(s.peak_resets_per_minute, 0) AS peak_resets_per_minute,
                   coalesce(a.policy_advances, 0) AS policy_advances
            FROM stats s FULL JOIN advances a ON a.start = s.start ORDER BY 1""")
    @RegisterConstructorMapper(Bucket.class)
    List<Bucket> timeline(
            @Bind("community") long community,
            @Bind("since") Instant since,
            @Bind("bucketSeconds") double bucketSeconds);

    @SqlQuery("""
            SELECT community_id, channel_id, change, actor, advanced_at FROM policy_stamp_advances
            WHERE community_id = :community AND advanced_at >= :from AND advanced_at < :to
            ORDER BY advanced_at DESC LIMIT 50""")
    @RegisterConstructorMapper(Advance.class)
    List<Advance> advances(@Bind("community") long community, @Bind("from") Instant from, @Bind("to") Instant to);

    /** False while migration 0191 is not applied, and after a rollback to before-incremental. */
    @SqlQuery("SELECT to_regclass('public.policy_changes_as_entries') IS NOT NULL")
    boolean changesAsEntriesKept();

    /** A policy change that reaches readers as entries, in the change's own transaction. */
    @SqlUpdate("""
            INSERT INTO policy_changes_as_entries (settings_id, change, actor) VALUES (:settings, :change, :actor)""")
    void recordChangeAsEntries(
            @Bind("settings") long settings, @Bind("change") String change, @Bind("actor") String actor);

    /** Adds entries this instance sent for the change recorded as history row {@code settings}. */
    @SqlUpdate("""
            INSERT INTO policy_change_entries_sent (settings_id, instance_id, entries)
            SELECT sh.id, :instance, :entries FROM channel_settings_history sh WHERE sh.id = :settings
            ON CONFLICT (settings_id, instance_id) DO UPDATE SET
                entries = policy_change_entries_sent.entries + EXCLUDED.entries""")
    void addEntriesSent(
            @Bind("settings") long settings, @Bind("instance") String instance, @Bind("entries") long entries);

    /**
     * Adds entries this instance sent for the community's change recorded at {@code changedMicros}: an
     * incremental page knows a change by its moment, which is where the change stands in change order.
     */
    @SqlUpdate("""
            INSERT INTO policy_change_entries_sent (settings_id, instance_id, entries)
            SELECT sh.id, :instance, :entries FROM channel_settings_history sh
            WHERE sh.community_id = :community
              AND sh.changed_at = TIMESTAMPTZ 'epoch' + CAST(:changedMicros AS bigint) * INTERVAL '1 microsecond'
            ON CONFLICT (settings_id, instance_id) DO UPDATE SET
                entries = policy_change_entries_sent.entries + EXCLUDED.entries""")
    void addEntriesSentAt(
            @Bind("community") long community,
            @Bind("changedMicros") long changedMicros,
            @Bind("instance") String instance,
            @Bind("entries") long entries);

    /** Policy changes delivered as entries, in buckets of {@code bucketSeconds} from {@code since}. */
    @SqlQuery("""
            SELECT date_bin(make_interval(secs => :bucketSeconds), sh.changed_at, :since) AS start, count(*) AS changes
            FROM policy_changes_as_entries p JOIN channel_settings_history sh ON sh.id = p.settings_id
            WHERE sh.community_id = :community AND sh.changed_at >= :since GROUP BY 1 ORDER BY 1""")
    @RegisterConstructorMapper(AsEntriesBucket.class)
    List<AsEntriesBucket> changesAsEntriesPerBucket(
            @Bind("community") long community,
            @Bind("since") Instant since,
            @Bind("bucketSeconds") double bucketSeconds);

    /** The latest 50 policy changes delivered as entries since {@code since}, with the entries every instance sent. */
    @SqlQuery("""
            SELECT p.settings_id, sh.channel_id, c.name AS channel_name, p.change, p.actor, sh.changed_at,
                   coalesce((SELECT sum(s.entries) FROM policy_change_entries_sent s WHERE s.settings_id = p.settings_id), 0)
                       AS entries_sent
            FROM policy_changes_as_entries p
            JOIN channel_settings_history sh ON sh.id = p.settings_id
            JOIN channels c ON c.id = sh.channel_id
            WHERE sh.community_id = :community AND sh.changed_at >= :since
            ORDER BY sh.changed_at DESC LIMIT 50""")
    @RegisterConstructorMapper(ChangeAsEntries.class)
    List<ChangeAsEntries> changesAsEntries(@Bind("community") long community, @Bind("since") Instant since);

    @SqlQuery("SELECT id, name FROM communities ORDER BY name")
    @RegisterConstructorMapper(CommunityRow.class)
    List<CommunityRow> communities();
}
