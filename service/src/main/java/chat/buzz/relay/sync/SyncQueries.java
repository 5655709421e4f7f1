package chat.buzz.relay.sync;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.access.ReaderTerms;
import org.jdbi.v3.core.statement.Query;

/**
 * Every SQL statement of WebSocket sync, one text block each. Who may see what is never decided here:
 * the {@code <...>} fragments come from the access package, the same ones incremental reads use, and
 * {@link #judgedFor} and {@link #readersJudged} fill them in. Heads are aliased {@code a}, their events
 * {@code e}, their channels {@code c}, the channel an artifact last left by a move {@code mc}.
 */
final class SyncQueries {
    private SyncQueries() {}

    /**
     * One keyset chunk of D, ordered by d; {@code :only} (nullable) narrows it to one channel whose
     * membership just changed for the reader, and to nothing when membership does not decide whether
     * the reader discovers that channel (an open listed one): the reader holds its artifacts already.
     */
    static final String SNAPSHOT_CHUNK = """
            SELECT a.d, e.json
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            WHERE a.community_id = :community AND a.d > :after
              AND (CAST(:only AS uuid) IS NULL OR (a.channel_id = CAST(:only AS uuid) AND <membershipDecidesDiscovery>))
              AND <discoverable>
            ORDER BY a.d
            LIMIT :chunk
            """;

    /**
     * How a reader's view of one head is judged: whether it is in D, and if not, whether the reader
     * could have held it since its floor (then a removal, with the reason and the channel it may name;
     * otherwise {@code reason} is null and the reader hears nothing). The removal names the channel the
     * artifact last left when the reader can read it, else its channel when readable. The statements
     * below add their own set of readers ({@code <readers>}) and conditions.
     */
    private static final String JUDGED = """
            SELECT a.d, <ord> CASE WHEN j.discoverable <firstToSee> THEN e.json END AS json, j.discoverable,
                   CASE WHEN NOT j.discoverable AND <couldHaveHeld> THEN <removeReason> END AS reason,
                   CASE WHEN mc.id IS NOT NULL AND <movedFromReadable> THEN mc.id
                        WHEN <channelReadable> THEN c.id END AS named
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            LEFT JOIN channels mc ON mc.id = <lastMovedFrom> AND mc.id <> a.channel_id
            <readers>
            CROSS JOIN LATERAL (SELECT <discoverable> AS discoverable) j
            """;

    /** One artifact as one reader sees it now. */
    static final String HEAD_FOR_READER = JUDGED + """
            WHERE a.community_id = :community AND a.d = :d
            """;

    /**
     * One keyset chunk of a channel's artifacts, deleted ones included, that are not in D for the
     * reader but that it could have held: what a reader whose access to the channel changed must drop.
     * Only where membership decides discovery: leaving an open listed channel takes nothing away.
     */
    static final String LEFT_CHANNEL_CHUNK = "SELECT * FROM (" + JUDGED + """
            WHERE a.community_id = :community AND a.channel_id = :only AND a.d > :after
              AND <membershipDecidesDiscovery>
            ORDER BY a.d) v
            WHERE v.reason IS NOT NULL
            ORDER BY v.d
            LIMIT :chunk
            """;

    /**
     * One artifact as every reader of a fan-out sees it now, one row per reader ({@code ord}, from 1):
     * the readers are the arrays {@code :pubkeys}, {@code :floors} and {@code :scopes} (channel ids
     * joined by commas, NULL for no scope). The head's JSON comes once, on the first row that may see it.
     */
    static final String HEAD_FOR_READERS = JUDGED + """
            WHERE a.community_id = :community AND a.d = :d
            ORDER BY r.ord
            """;

    /**
     * The moment since which a new subscription answers for what its reader could have held: the
     * overlap before now, but never before the community's policy stamp, since channel settings are
     * judged as they are now.
     */
    static final String FLOOR = """
            SELECT CAST(extract(epoch FROM GREATEST(now() - CAST(:overlap AS bigint) * INTERVAL '1 second',
                                                    artifact_policy_modified_at)) * 1000000 AS bigint)
            FROM communities WHERE id = :community
            """;

    /** The access fragments of {@link #SNAPSHOT_CHUNK}, {@link #HEAD_FOR_READER} or {@link #LEFT_CHANNEL_CHUNK}. */
    static Query judgedFor(Query query, boolean scoped) {
        ReaderTerms reader = ReaderTerms.BOUND;
        return judged(query, reader)
                .define("ord", "")
                .define("firstToSee", "")
                .define("readers", "")
                .define("discoverable", AccessSql.discoverableHead("a", "e", "c", scoped))
                .define("couldHaveHeld", AccessSql.couldHaveHeld("a", scoped))
                .define("membershipDecidesDiscovery", AccessSql.membershipDecidesDiscovery("c", scoped));
    }

    /** The access fragments of {@link #HEAD_FOR_READERS}: each row of {@code r} is one reader. */
    static Query readersJudged(Query query) {
        ReaderTerms reader = ReaderTerms.columnsOf("r");
        return judged(query, reader)
                .define("ord", "r.ord,")
                .define("firstToSee", "AND r.ord = min(r.ord) FILTER (WHERE j.discoverable) OVER ()")
                .define("readers", """
                        CROSS JOIN (SELECT k.pubkey, k.floor, CAST(string_to_array(k.scopes, ',') AS uuid[]) AS scope, k.ord
                                    FROM unnest(CAST(:pubkeys AS text[]), CAST(:floors AS bigint[]), CAST(:scopes AS text[]))
                                         WITH ORDINALITY AS k(pubkey, floor, scopes, ord)) r""")
                .define("discoverable", AccessSql.discoverableHead("a", "e", "c", reader))
                .define("couldHaveHeld", AccessSql.couldHaveHeld("a", reader));
    }

    private static Query judged(Query query, ReaderTerms reader) {
        return query.define("removeReason", AccessSql.removeReason("a", "c", "mc", reader))
                .define("movedFromReadable", AccessSql.readable("mc", reader))
                .define("channelReadable", AccessSql.readable("c", reader))
                .define("lastMovedFrom", AccessSql.lastMovedFrom("a"));
    }
}
