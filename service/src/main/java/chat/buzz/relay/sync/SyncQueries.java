package chat.buzz.relay.sync;

import chat.buzz.relay.access.AccessHistorySql;
import chat.buzz.relay.access.AccessHistorySql.ChangeSide;
import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.access.Judge;
import chat.buzz.relay.access.ReaderTerms;
import chat.buzz.relay.changes.PolicyChangeDirection;
import chat.buzz.relay.database.Sql;
import java.util.HashMap;
import java.util.Map;

/**
 * Every SQL statement of WebSocket sync, one text block each. Who may see what is never decided here:
 * the {@code <...>} fragments come from the access package, the same ones incremental reads use, and
 * {@link #judgedFor} and {@link #readersJudged} fill them in with {@link Sql#fill}; {@code <judged>} is
 * {@link #JUDGED}, filled with the same fragments. Heads are aliased {@code a}, their events
 * {@code e}, their channels {@code c}, the channel an artifact last left by a move {@code mc}.
 */
final class SyncQueries {
    private SyncQueries() {}

    /**
     * One keyset chunk of D, ordered by d; {@code :only} (nullable) narrows it to one channel whose
     * membership just changed for the reader, and to nothing when membership does not decide whether
     * the reader discovers that channel (an open listed one) and its settings have not changed since the
     * reader first joined it in its window: the reader holds its artifacts already.
     */
    static final String SNAPSHOT_CHUNK = """
            SELECT a.d, e.json
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            WHERE a.community_id = :community AND a.d > :after
              AND (CAST(:only AS uuid) IS NULL
                   OR (a.channel_id = CAST(:only AS uuid) AND (<membershipDecidesDiscovery> OR <settingsChangedSinceJoined>)))
              AND <discoverable>
            ORDER BY a.d
            LIMIT :chunk
            """;

    /**
     * One keyset chunk of a channel's heads in D, ordered by d, whose channel was not in the reader's D
     * just before a recorded policy change ({@code :settings}, a row of channel_settings_history): what
     * that change brought into the reader's D (PROTOCOL 4.4, 5).
     */
    static final String ENTERED_CHUNK = """
            SELECT a.d, e.json
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            JOIN channel_settings_history sh ON sh.id = :settings AND sh.channel_id = c.id
            WHERE a.community_id = :community AND a.channel_id = :only AND a.d > :after
              AND <discoverable> AND NOT <inDBefore>
            ORDER BY a.d
            LIMIT :chunk
            """;

    /**
     * One head judged for a reader by {@link Judge}: the verdict columns, and the head's JSON when it is
     * an upsert. The statements below add their own set of readers ({@code <readers>}) and conditions.
     */
    private static final String JUDGED = """
            SELECT a.d, <ord> CASE WHEN jf.in_d <firstToSee> THEN e.json END AS json, <verdict>
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            LEFT JOIN channels mc ON mc.id = <lastMovedFrom> AND mc.id <> a.channel_id
            <readers>
            <facts>
            """;

    /** One artifact as one reader sees it now. */
    static final String HEAD_FOR_READER = """
            <judged>
            WHERE a.community_id = :community AND a.d = :d
            """;

    /**
     * One keyset chunk of a channel's artifacts, deleted ones included, that the reader must be told
     * have left (the verdict is a removal): what a reader whose membership of the channel changed must
     * drop, only where membership decides discovery ({@code <membershipDecidesDiscovery>}): leaving an
     * open listed channel takes nothing away.
     */
    static final String LEFT_CHANNEL_CHUNK = """
            SELECT * FROM (
            <judged>
            WHERE a.community_id = :community AND a.channel_id = :only AND a.d > :after
              AND <membershipDecidesDiscovery>
            ORDER BY a.d) v
            WHERE v.verdict = 'remove'
            ORDER BY v.d
            LIMIT :chunk
            """;

    /**
     * One keyset chunk of a channel's artifacts that a recorded policy change ({@code :settings}) took out
     * of the reader's D: the channel was in D just before the change, the artifact lay in it then, and the
     * verdict now is a removal. A reader whose D the change did not touch (a former member already told,
     * a subscriber that never held the channel) hears nothing of it (PROTOCOL 4.4, 5).
     */
    static final String LEFT_AT_CHANGE_CHUNK = """
            SELECT * FROM (
            <judged>
            JOIN channel_settings_history sh ON sh.id = :settings AND sh.channel_id = c.id
            WHERE a.community_id = :community AND a.channel_id = :only AND a.d > :after
              AND <inDBefore> AND <heldAtChange>
            ORDER BY a.d) v
            WHERE v.verdict = 'remove'
            ORDER BY v.d
            LIMIT :chunk
            """;

    /**
     * One artifact as every reader of a fan-out sees it now, one row per reader ({@code ord}, from 1):
     * the readers are the arrays {@code :pubkeys}, {@code :floors} and {@code :scopes} (channel ids
     * joined by commas, NULL for no scope). The head's JSON comes once, on the first row that may see it.
     */
    static final String HEAD_FOR_READERS = """
            <judged>
            WHERE a.community_id = :community AND a.d = :d
            ORDER BY r.ord
            """;

    /**
     * What a recorded policy change ({@code :settings}) took out of every reader's D, for a channel small
     * enough to judge whole ({@link #CHANNEL_HEADS_UP_TO}): {@link #LEFT_AT_CHANGE_CHUNK} for the readers
     * of a fan-out, one row per reader ({@code ord}) and removed artifact.
     */
    static final String LEFT_AT_CHANGE_FOR_READERS = """
            SELECT * FROM (
            <judged>
            JOIN channel_settings_history sh ON sh.id = :settings AND sh.channel_id = c.id
            WHERE a.community_id = :community AND a.channel_id = :only
              AND <inDBefore> AND <heldAtChange>) v
            WHERE v.verdict = 'remove'
            ORDER BY v.ord, v.d
            """;

    /**
     * What a recorded policy change ({@code :settings}) brought into every reader's D, for a channel small
     * enough to judge whole: {@link #ENTERED_CHUNK} for the readers of a fan-out, one row per reader
     * ({@code ord}) and artifact; each head's JSON comes once, on the first reader's row.
     */
    static final String ENTERED_FOR_READERS = """
            SELECT r.ord, a.d, CASE WHEN r.ord = min(r.ord) OVER (PARTITION BY a.d) THEN e.json END AS json
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            JOIN channel_settings_history sh ON sh.id = :settings AND sh.channel_id = c.id
            <readers>
            WHERE a.community_id = :community AND a.channel_id = :only
              AND <discoverable> AND NOT <inDBefore>
            ORDER BY r.ord, a.d
            """;

    /** How many heads, deleted ones included, channel {@code :only} has, counted up to {@code :bound}. */
    static final String CHANNEL_HEADS_UP_TO = """
            SELECT count(*) FROM (SELECT 1 FROM artifact_heads WHERE channel_id = :only LIMIT :bound) h
            """;

    /** A recorded policy change's settings before and after it, for {@link PolicyChangeDirection#of}. */
    static final String SETTINGS_CHANGE = """
            SELECT visibility_before = 'open' AS open_before, visibility_after = 'open' AS open_after,
                   unlisted_before, unlisted_after, ttl_seconds_before, ttl_seconds_after, deleted_before, deleted_after
            FROM channel_settings_history WHERE id = :settings
            """;

    /** The database's time and the community's policy stamp, for {@link Judge#floor}. */
    static final String FLOOR_INPUTS = """
            SELECT CAST(extract(epoch FROM now()) * 1000000 AS bigint) AS now_micros,
                   CAST(extract(epoch FROM artifact_policy_modified_at) * 1000000 AS bigint) AS policy_micros
            FROM communities WHERE id = :community
            """;

    /**
     * {@code statement} ({@link #SNAPSHOT_CHUNK}, {@link #ENTERED_CHUNK}, {@link #HEAD_FOR_READER},
     * {@link #LEFT_CHANNEL_CHUNK} or {@link #LEFT_AT_CHANGE_CHUNK}) with its access fragments, for one
     * reader bound as parameters.
     */
    static String judgedFor(String statement, boolean scoped) {
        Map<String, String> fragments = judgedFragments(Judge.Reader.bound(scoped));
        fragments.put("ord", "");
        fragments.put("firstToSee", "");
        fragments.put("readers", "");
        fragments.put("discoverable", AccessSql.discoverableHead("a", "e", "c", scoped));
        fragments.put("membershipDecidesDiscovery", AccessSql.membershipDecidesDiscovery("c", scoped));
        fragments.put("settingsChangedSinceJoined", AccessHistorySql.settingsChangedSinceJoinedInWindow("c"));
        fragments.put("inDBefore", AccessHistorySql.channelInDAtChange("sh", "c", ChangeSide.BEFORE, scoped));
        return fill(statement, fragments);
    }

    /**
     * {@code statement} ({@link #HEAD_FOR_READERS}, {@link #LEFT_AT_CHANGE_FOR_READERS} or
     * {@link #ENTERED_FOR_READERS}) with its access fragments: each row of {@code r} is one reader.
     */
    static String readersJudged(String statement) {
        ReaderTerms reader = ReaderTerms.columnsOf("r");
        Map<String, String> fragments = judgedFragments(Judge.Reader.columnsOf("r"));
        fragments.put("ord", "r.ord,");
        fragments.put("firstToSee", "AND r.ord = min(r.ord) FILTER (WHERE jf.in_d) OVER (PARTITION BY a.d)");
        fragments.put("readers", READERS);
        fragments.put("discoverable", AccessSql.discoverableHead("a", "e", "c", reader));
        fragments.put("inDBefore", AccessHistorySql.channelInDAtChange("sh", "c", ChangeSide.BEFORE, reader));
        return fill(statement, fragments);
    }

    /** The readers of a fan-out as rows of {@code r}, numbered from 1 in {@code ord}. */
    private static final String READERS = """
            CROSS JOIN (SELECT k.pubkey, k.floor, CAST(string_to_array(k.scopes, ',') AS uuid[]) AS scope, k.ord
                        FROM unnest(CAST(:pubkeys AS text[]), CAST(:floors AS bigint[]), CAST(:scopes AS text[]))
                             WITH ORDINALITY AS k(pubkey, floor, scopes, ord)) r""";

    private static Map<String, String> judgedFragments(Judge.Reader reader) {
        Map<String, String> fragments = new HashMap<>();
        fragments.put("facts", Judge.facts("a", "e", "c", "mc", reader));
        fragments.put("verdict", Judge.verdictColumns("false"));
        fragments.put("lastMovedFrom", AccessSql.lastMovedFrom("a"));
        fragments.put("heldAtChange", AccessHistorySql.heldInChannelAt("a", "sh.channel_id", "sh.changed_at"));
        return fragments;
    }

    /** {@link #JUDGED} filled first, as {@code <judged>}, then the statement with the same fragments. */
    private static String fill(String statement, Map<String, String> fragments) {
        fragments.put("judged", Sql.fill(JUDGED, fragments));
        return Sql.fill(statement, fragments);
    }
}
