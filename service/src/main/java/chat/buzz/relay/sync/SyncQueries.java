package chat.buzz.relay.sync;

import chat.buzz.relay.access.AccessSql;

/**
 * Every SQL statement of WebSocket sync. Who may see what is never decided here: the predicates
 * come from the access package, the same ones incremental reads use.
 * Heads are aliased {@code a}, their events {@code e}, their channels {@code c}; the reader is {@code :reader}.
 */
final class SyncQueries {
    static final String NOTIFY_CHANNEL = "buzz_sync";

    static final String NOTIFY = "SELECT pg_notify(:channel, :payload)";

    static final String HEAD_OF_EVENT =
            "SELECT d, channel_id FROM artifact_heads WHERE community_id = :community AND head_event_id = :event";

    private static final String HEADS = """
            FROM artifact_heads a
            JOIN events e ON e.id = a.head_event_id
            JOIN channels c ON c.id = a.channel_id
            """;

    private SyncQueries() {}

    /** The predicate "this head is in D(reader, scope)"; a scope is bound as {@code :scope}. */
    static String discoverable(boolean scoped) {
        return AccessSql.discoverableHead("a", "e", "c", scoped);
    }

    /** One keyset chunk of D, ordered by d; {@code :only} (nullable) narrows it to one channel. */
    static String snapshotChunk(boolean scoped) {
        return "SELECT a.d, e.json " + HEADS + """
                WHERE a.community_id = :community AND a.d > :after
                  AND (CAST(:only AS uuid) IS NULL OR a.channel_id = CAST(:only AS uuid))
                  AND """ + discoverable(scoped) + " ORDER BY a.d LIMIT :chunk";
    }

    /**
     * One artifact as one reader sees it now: its head when in D, otherwise what a removal may say.
     * {@code :from} is the channel the artifact was in before the change.
     */
    static String headForReader(boolean scoped) {
        return "SELECT a.d, e.json, " + discoverable(scoped) + " AS discoverable, "
                + AccessSql.removeReason("a", "c", "f") + " AS reason, "
                + AccessSql.readable("c") + " AS reads_channel, "
                + "(f.id IS NOT NULL AND " + AccessSql.readable("f") + ") AS reads_from "
                + HEADS + """
                LEFT JOIN channels f ON f.id = CAST(:from AS uuid) AND f.id <> a.channel_id
                WHERE a.community_id = :community AND a.d = :d""";
    }

    /**
     * Live heads of a channel that are not in D for the reader: what a reader whose access to the
     * channel changed must drop. A reader who can no longer read the channel is told only about
     * artifacts that were there before its removal; anything that arrived later stays unnamed.
     */
    static String leftChannelChunk(boolean scoped) {
        return "SELECT a.d, " + AccessSql.readable("c") + " AS reads_channel " + HEADS + """
                LEFT JOIN channel_members mr ON mr.channel_id = a.channel_id AND mr.pubkey = :reader
                WHERE a.community_id = :community AND a.channel_id = :only AND a.d > :after
                  AND """ + AccessSql.liveHead("a", "e") + " AND NOT " + discoverable(scoped)
                + " AND (" + AccessSql.readable("c") + " OR (mr.removed_at IS NOT NULL AND "
                + AccessSql.inChannelBeforeRemoval("a", "mr") + "))"
                + " ORDER BY a.d LIMIT :chunk";
    }

    /** Channels of a scope the reader can read that carry a TTL: never part of durable sync. */
    static final String TTL_CHANNELS_IN_SCOPE = "SELECT c.id FROM channels c WHERE c.community_id = :community"
            + " AND c.id = ANY (CAST(:scope AS uuid[])) AND c.ttl_seconds IS NOT NULL AND "
            + AccessSql.readable("c") + " ORDER BY c.id";
}
