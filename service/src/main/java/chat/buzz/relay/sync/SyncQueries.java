package chat.buzz.relay.sync;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.access.ReaderTerms;

/**
 * Every SQL statement of WebSocket sync. Who may see what is never decided here: the predicates
 * come from the access package, the same ones incremental reads use.
 * Heads are aliased {@code a}, their events {@code e}, their channels {@code c}; the reader is {@code :reader}.
 */
final class SyncQueries {
    private static final String HEADS = """
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            """;

    private static final String MICROS = "CAST(extract(epoch FROM %s) * 1000000 AS bigint)";

    private SyncQueries() {}

    /** The predicate "this head is in D(reader, scope)"; a scope is bound as {@code :scope}. */
    static String discoverable(boolean scoped) {
        return AccessSql.discoverableHead("a", "e", "c", scoped);
    }

    /**
     * One keyset chunk of D, ordered by d; {@code :only} (nullable) narrows it to one channel whose
     * membership just changed for the reader, and to nothing when membership does not decide whether
     * the reader discovers that channel (an open listed one): the reader holds its artifacts already.
     */
    static String snapshotChunk(boolean scoped) {
        return "SELECT a.d, e.json " + HEADS + """
                WHERE a.community_id = :community AND a.d > :after
                  AND (CAST(:only AS uuid) IS NULL OR (a.channel_id = CAST(:only AS uuid) AND """
                + AccessSql.membershipDecidesDiscovery("c", scoped) + "))\n  AND " + discoverable(scoped)
                + " ORDER BY a.d LIMIT :chunk";
    }

    /**
     * How a reader's view of one head is judged: whether it is in D, and if not, whether the reader
     * could have held it since its floor (then a removal, with the reason and the channel it may
     * name; otherwise {@code reason} is null and the reader hears nothing). The removal names the
     * channel the artifact last left when the reader can read it, else its channel when readable.
     * {@code readers} joins the set of readers judged, when they are not the one bound reader.
     */
    private static String judged(String discoverable, String couldHaveHeld, ReaderTerms reader, String readers) {
        return "CASE WHEN NOT j.discoverable AND " + couldHaveHeld + " THEN "
                + AccessSql.removeReason("a", "c", "mc", reader) + " END AS reason, "
                + "CASE WHEN mc.id IS NOT NULL AND " + AccessSql.readable("mc", reader) + " THEN mc.id"
                + " WHEN " + AccessSql.readable("c", reader) + " THEN c.id END AS named "
                + HEADS
                + " LEFT JOIN channels mc ON mc.id = " + AccessSql.lastMovedFrom("a") + " AND mc.id <> a.channel_id "
                + readers
                + " CROSS JOIN LATERAL (SELECT " + discoverable + " AS discoverable) j ";
    }

    private static String judged(boolean scoped) {
        return "SELECT a.d, CASE WHEN j.discoverable THEN e.json END AS json, j.discoverable, "
                + judged(discoverable(scoped), AccessSql.couldHaveHeld("a", scoped), ReaderTerms.BOUND, "");
    }

    /**
     * One artifact as every reader of a fan-out sees it now, one row per reader ({@code ord}, from 1):
     * the readers are the arrays {@code :pubkeys}, {@code :floors} and {@code :scopes} (channel ids
     * joined by commas, NULL for no scope). The head's JSON comes once, on the first row that may see it.
     */
    static final String HEAD_FOR_READERS;

    static {
        ReaderTerms reader = ReaderTerms.columnsOf("r");
        HEAD_FOR_READERS = "SELECT r.ord, j.discoverable, CASE WHEN j.discoverable AND r.ord ="
                + " min(r.ord) FILTER (WHERE j.discoverable) OVER () THEN e.json END AS json, "
                + judged(
                        AccessSql.discoverableHead("a", "e", "c", reader),
                        AccessSql.couldHaveHeld("a", reader),
                        reader,
                        """
                        CROSS JOIN (SELECT k.pubkey, k.floor, CAST(string_to_array(k.scopes, ',') AS uuid[]) AS scope, k.ord
                            FROM unnest(CAST(:pubkeys AS text[]), CAST(:floors AS bigint[]), CAST(:scopes AS text[]))
                                 WITH ORDINALITY AS k(pubkey, floor, scopes, ord)) r""")
                + "WHERE a.community_id = :community AND a.d = :d ORDER BY r.ord";
    }

    /** One artifact as one reader sees it now. */
    static String headForReader(boolean scoped) {
        return judged(scoped) + "WHERE a.community_id = :community AND a.d = :d";
    }

    /**
     * One keyset chunk of a channel's artifacts, deleted ones included, that are not in D for the
     * reader but that it could have held: what a reader whose access to the channel changed must drop.
     */
    static String leftChannelChunk(boolean scoped) {
        return "SELECT * FROM (" + judged(scoped)
                + "WHERE a.community_id = :community AND a.channel_id = :only AND a.d > :after"
                + " AND " + AccessSql.membershipDecidesDiscovery("c", scoped) + " ORDER BY a.d) v"
                + " WHERE v.reason IS NOT NULL ORDER BY v.d LIMIT :chunk";
    }

    /**
     * The moment since which a new subscription answers for what its reader could have held: the
     * overlap before now, but never before the community's policy stamp, since channel settings are
     * judged as they are now.
     */
    static final String FLOOR = "SELECT "
            + MICROS.formatted("GREATEST(now() - CAST(:overlap AS bigint) * INTERVAL '1 second',"
                    + " artifact_policy_modified_at)")
            + " FROM communities WHERE id = :community";
}
