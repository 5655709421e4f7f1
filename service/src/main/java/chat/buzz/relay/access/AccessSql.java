package chat.buzz.relay.access;

import chat.buzz.protocol.Kinds;
import java.util.function.Function;

/**
 * The read rules of {@link ChannelAccess} and of PROTOCOL 4.2 as SQL fragments, so every read path
 * (current, incremental, WebSocket sync) decides access inside its query instead of loading a
 * reader's channel list. Fragments take table aliases; the reader is bound as {@code :reader} and a
 * scope, when given, as {@code :scope} (a text array of channel ids). The variants taking
 * {@link ReaderTerms} say the same for readers named by SQL expressions, so one query can judge many.
 * The rules over the past (what a reader could have held, what a policy change moved) are in
 * {@link AccessHistorySql}. Every fragment is a text block filled by {@code formatted}, so it reads as
 * the SQL it is.
 */
public final class AccessSql {
    private AccessSql() {}

    public static final String ACTIVE_MEMBER = activeMember("c");

    public static final String READABLE_CHANNEL = readable("c");

    public static String activeMember(String channel) {
        return activeMember(channel, ReaderTerms.BOUND);
    }

    /**
     * For readers named by columns, {@code OFFSET 0} keeps the check a probe of the membership index per
     * row: without it PostgreSQL may answer the EXISTS with a hash of every active membership of every
     * channel, built anew for each use in the statement, which for a fan-out over a few hundred readers
     * costs far more than the probes.
     */
    private static String activeMember(String channel, ReaderTerms reader) {
        String probeEachRow = reader.equals(ReaderTerms.BOUND) ? "" : " OFFSET 0";
        return """
                EXISTS (SELECT 1 FROM channel_members am WHERE am.channel_id = %s.id AND am.pubkey = %s AND am.removed_at IS NULL%s)""".formatted(channel, reader.pubkey(), probeEachRow);
    }

    /** Open channels: anyone in the community; private: active members. Deleted channels: nobody. */
    public static String readable(String channel) {
        return readable(channel, ReaderTerms.BOUND);
    }

    public static String readable(String channel, ReaderTerms reader) {
        return """
                (%1$s.deleted_at IS NULL AND (%1$s.visibility = 'open' OR %2$s))""".formatted(channel, activeMember(channel, reader));
    }

    /**
     * Channels whose artifacts a reader discovers, TTL aside: with a scope, the readable channels it
     * names (unlisted ones included); without, private channels of active members, listed open channels,
     * and unlisted open channels of active members. A private channel is readable only by its active
     * members, so "member, or open and listed" says all of it.
     */
    public static String discoverableChannel(String channel, boolean scoped) {
        return discoverableChannel(channel, scoped, ReaderTerms.BOUND);
    }

    private static String discoverableChannel(String channel, boolean scoped, ReaderTerms reader) {
        if (scoped) {
            return """
                    (%1$s.id = ANY (%2$s) AND %3$s)""".formatted(channel, reader.scope(), readable(channel, reader));
        }
        return """
                (%1$s.deleted_at IS NULL AND ((%1$s.visibility = 'open' AND NOT %1$s.unlisted) OR %2$s))""".formatted(channel, activeMember(channel, reader));
    }

    /**
     * Channels whose heads mode "current" returns (PROTOCOL 4): when the filter names channels or
     * artifacts, every readable channel (knowing the id is enough for an unlisted one); otherwise the
     * discovery rule of 4.2, so a broad read never names an unlisted channel to a non-member. TTL
     * channels are included either way: they are left out of durable sync only.
     */
    public static String currentChannel(String channel, boolean namedByFilter) {
        return namedByFilter ? readable(channel) : discoverableChannel(channel, false);
    }

    /**
     * The channels of a scope that the reader can read and that carry a TTL: never part of durable
     * sync, so incremental reads and WebSocket sync refuse them. Binds {@code :community}, {@code :reader}
     * and {@code :scope}; returns {@code id}, ordered.
     */
    public static final String TTL_CHANNELS_IN_SCOPE = """
            SELECT c.id FROM channels c
            WHERE c.community_id = :community AND c.id = ANY (CAST(:scope AS uuid[]))
              AND c.ttl_seconds IS NOT NULL AND %s
            ORDER BY c.id""".formatted(READABLE_CHANNEL);

    /** A head that is current state: not deleted and not redacted ({@code head} joined to its event). */
    public static String liveHead(String head, String event) {
        return """
                (NOT %s.deleted AND %s.redacted_at IS NULL)""".formatted(head, event);
    }

    /** Membership in the discoverable set D(reader, scope) of PROTOCOL 4.2. */
    public static String discoverableHead(String head, String event, String channel, boolean scoped) {
        return discoverableHead(head, event, channel, scoped, ReaderTerms.BOUND);
    }

    static String discoverableHead(String head, String event, String channel, boolean scoped, ReaderTerms reader) {
        return """
                (%s AND %s.ttl_seconds IS NULL AND %s)""".formatted(liveHead(head, event), channel, discoverableChannel(channel, scoped, reader));
    }

    /** {@link #discoverableHead} for readers each with or without a scope (NULL). */
    public static String discoverableHead(String head, String event, String channel, ReaderTerms reader) {
        return eitherScope(reader, scoped -> discoverableHead(head, event, channel, scoped, reader));
    }

    /** Whether a known-ID read may return the head: live, durable and readable, listed or not. */
    public static String readableHead(String head, String event, String channel) {
        return """
                (%1$s.d IS NOT NULL AND %2$s AND %3$s.ttl_seconds IS NULL AND %4$s)""".formatted(head, liveHead(head, event), channel, readable(channel));
    }

    /**
     * Whether {@code channel} is in the reader's D now (PROTOCOL 5): its artifacts would be discovered,
     * so a removal may name it. Never a private channel the reader is not in, nor an unlisted one it is
     * not a member of unless the scope names it, nor a TTL channel.
     */
    static String channelInD(String channel, boolean scoped, ReaderTerms reader) {
        return """
                (%s.ttl_seconds IS NULL AND %s)""".formatted(channel, discoverableChannel(channel, scoped, reader));
    }

    /** {@link #channelInD} for readers each with or without a scope (NULL). */
    static String channelInD(String channel, ReaderTerms reader) {
        return eitherScope(reader, scoped -> channelInD(channel, scoped, reader));
    }

    /**
     * Whether a reader's membership of {@code channel} decides if its artifacts are in D: for private
     * channels, and unlisted ones when there is no scope. Open channels are readable by everyone, and
     * listed ones discovered by everyone, so joining or leaving them changes nothing a reader syncs.
     */
    public static String membershipDecidesDiscovery(String channel, boolean scoped) {
        String fragment = scoped ? """
                (%1$s.visibility = 'private')""" : """
                (%1$s.visibility = 'private' OR %1$s.unlisted)""";
        return fragment.formatted(channel);
    }

    /** One predicate for readers each with or without a scope (a NULL scope: none). */
    static String eitherScope(ReaderTerms reader, Function<Boolean, String> predicate) {
        return """
                (CASE WHEN %s IS NULL THEN %s ELSE %s END)""".formatted(reader.scope(), predicate.apply(false), predicate.apply(true));
    }

    /**
     * The channel an artifact most recently left by a move (its latest removal marker), for
     * {@link Judge#facts}: use as {@code LEFT JOIN LATERAL (...) alias ON true}.
     */
    public static String lastMovedFrom(String head) {
        return """
                (SELECT mr.channel_id FROM artifact_revisions mr
                 WHERE mr.community_id = %1$s.community_id AND mr.d = %1$s.d AND mr.kind = %2$d
                 ORDER BY mr.accepted_at DESC LIMIT 1)""".formatted(head, Kinds.REMOVAL_MARKER);
    }
}
