package chat.buzz.relay.access;

import chat.buzz.protocol.Kinds;
import java.util.function.Function;

/**
 * The read rules of {@link ChannelAccess} and of PROTOCOL 4.2 as SQL fragments, so every read path
 * (current, incremental, WebSocket sync) decides access inside its query instead of loading a
 * reader's channel list. Fragments take table aliases; the reader is bound as {@code :reader} and a
 * scope, when given, as {@code :scope} (a text array of channel ids). The variants taking
 * {@link ReaderTerms} say the same for readers named by SQL expressions, so one query can judge many.
 */
public final class AccessSql {
    private AccessSql() {}

    public static final String ACTIVE_MEMBER = activeMember("c");

    public static final String READABLE_CHANNEL = readable("c");

    public static String activeMember(String channel) {
        return activeMember(channel, ReaderTerms.BOUND);
    }

    private static String activeMember(String channel, ReaderTerms reader) {
        return "EXISTS (SELECT 1 FROM channel_members am WHERE am.channel_id = " + channel + ".id AND am.pubkey = "
                + reader.pubkey() + " AND am.removed_at IS NULL)";
    }

    /** Open channels: anyone in the community; private: active members. Deleted channels: nobody. */
    public static String readable(String channel) {
        return readable(channel, ReaderTerms.BOUND);
    }

    public static String readable(String channel, ReaderTerms reader) {
        return "(" + channel + ".deleted_at IS NULL AND (" + channel + ".visibility = 'open' OR "
                + activeMember(channel, reader) + "))";
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
            return "(" + channel + ".id = ANY (" + reader.scope() + ") AND " + readable(channel, reader) + ")";
        }
        return "(" + channel + ".deleted_at IS NULL AND ((" + channel + ".visibility = 'open' AND NOT " + channel
                + ".unlisted) OR " + activeMember(channel, reader) + "))";
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
        return "(NOT " + head + ".deleted AND " + event + ".redacted_at IS NULL)";
    }

    /** Membership in the discoverable set D(reader, scope) of PROTOCOL 4.2. */
    public static String discoverableHead(String head, String event, String channel, boolean scoped) {
        return discoverableHead(head, event, channel, scoped, ReaderTerms.BOUND);
    }

    static String discoverableHead(String head, String event, String channel, boolean scoped, ReaderTerms reader) {
        return "(" + liveHead(head, event) + " AND " + channel + ".ttl_seconds IS NULL AND "
                + discoverableChannel(channel, scoped, reader) + ")";
    }

    /** {@link #discoverableHead} for readers each with or without a scope (NULL). */
    public static String discoverableHead(String head, String event, String channel, ReaderTerms reader) {
        return eitherScope(reader, scoped -> discoverableHead(head, event, channel, scoped, reader));
    }

    /** Whether a known-ID read may return the head: live, durable and readable, listed or not. */
    public static String readableHead(String head, String event, String channel) {
        return "(" + head + ".d IS NOT NULL AND " + liveHead(head, event) + " AND " + channel
                + ".ttl_seconds IS NULL AND " + readable(channel) + ")";
    }

    /**
     * Whether {@code channel} is in the reader's D now (PROTOCOL 5): its artifacts would be discovered,
     * so a removal may name it. Never a private channel the reader is not in, nor an unlisted one it is
     * not a member of unless the scope names it, nor a TTL channel.
     */
    static String channelInD(String channel, boolean scoped, ReaderTerms reader) {
        return "(" + channel + ".ttl_seconds IS NULL AND " + discoverableChannel(channel, scoped, reader) + ")";
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
        return scoped
                ? "(" + channel + ".visibility = 'private')"
                : "(" + channel + ".visibility = 'private' OR " + channel + ".unlisted)";
    }

    /** The lower bound of {@link #couldHaveHeld}, given in microseconds since the epoch. */
    private static String floor(ReaderTerms reader) {
        return "(TIMESTAMPTZ 'epoch' + CAST(" + reader.floorMicros() + " AS bigint) * INTERVAL '1 microsecond')";
    }

    /**
     * Whether the artifact of {@code head} was in D(reader, scope) at some moment after {@code :floor}:
     * the only artifacts a reader may be told have left (PROTOCOL 4.1, 5), since naming any other would
     * leak its id. Three histories meet here. The artifact's: its accepted revisions, each holding the
     * artifact in its channel from its acceptance until the next revision or its own redaction, unless
     * it is a delete. The reader's: {@code channel_membership_spans}. The channel's: its settings now,
     * and before every change in {@code channel_settings_history} after the floor the settings that
     * change replaced, each for the time until that change (see {@link #settingsPeriods}). The artifact
     * could have been held when one moment lies in a hold, in a period whose settings made the channel
     * durable and discoverable to the reader, and, where membership decides that, in a membership span.
     * A change older than every history row (made before migration 0180) advanced the policy stamp, and
     * the floor is never older than that stamp ({@link Judge#floor}). This form is for readers each with
     * or without a scope (NULL) and with their own floor; the next for a reader whose scope is known.
     */
    static String couldHaveHeld(String head, ReaderTerms reader) {
        return eitherScope(reader, scoped -> couldHaveHeld(head, scoped, reader));
    }

    static String couldHaveHeld(String head, boolean scoped, ReaderTerms reader) {
        String floor = floor(reader);
        String from = "GREATEST(v.held_from, p.from_at, " + floor + ")";
        String until = "LEAST(v.held_until, p.until_at)";
        String memberDuringHold = """
                EXISTS (SELECT 1 FROM channel_membership_spans s WHERE s.channel_id = hc.id AND s.pubkey = %s
                        AND s.started_at < %s AND COALESCE(s.ended_at, 'infinity') > %s)""".formatted(reader.pubkey(), until, from);
        String discoverableDuringHold = scoped
                ? "(hc.id = ANY (" + reader.scope() + ") AND (p.visibility = 'open' OR " + memberDuringHold + "))"
                : "((p.visibility = 'open' AND NOT p.unlisted) OR " + memberDuringHold + ")";
        return """
                EXISTS (SELECT 1 FROM (
                        SELECT r.channel_id, r.op, r.accepted_at AS held_from,
                               LEAST(COALESCE(lead(r.accepted_at) OVER (ORDER BY r.accepted_at, r.event_id), 'infinity'),
                                     COALESCE(ev.redacted_at, 'infinity')) AS held_until
                        FROM artifact_revisions r JOIN events ev ON ev.id = r.event_id
                        WHERE r.community_id = %1$s.community_id AND r.d = %1$s.d AND r.kind = %4$d) v
                    JOIN channels hc ON hc.id = v.channel_id
                    CROSS JOIN LATERAL %5$s p
                    WHERE v.op <> 'delete' AND v.held_until > %2$s AND v.held_until > v.held_from
                      AND p.ttl_seconds IS NULL AND NOT p.deleted
                      AND %6$s < %7$s
                      AND (hc.deleted_at IS NULL OR hc.deleted_at > GREATEST(v.held_from, %2$s))
                      AND %3$s)""".formatted(
                        head,
                        floor,
                        discoverableDuringHold,
                        Kinds.ARTIFACT_REVISION,
                        settingsPeriods("hc", floor),
                        from,
                        until);
    }

    /**
     * The settings channel {@code channel} had since {@code floor}, one row per period: {@code visibility},
     * {@code unlisted}, {@code ttl_seconds}, {@code deleted}, and the period's bounds {@code from_at}
     * (-infinity for the first: it began at or before the floor) and {@code until_at} (infinity for the
     * settings in force now). Each recorded change after the floor ends the period of the settings it
     * replaced.
     */
    private static String settingsPeriods(String channel, String floor) {
        return """
                (SELECT q.visibility, q.unlisted, q.ttl_seconds, q.deleted, q.until_at,
                        COALESCE(lag(q.until_at) OVER (ORDER BY q.until_at, q.id), '-infinity') AS from_at
                 FROM (SELECT sh.id, sh.visibility_before AS visibility, sh.unlisted_before AS unlisted,
                              sh.ttl_seconds_before AS ttl_seconds, sh.deleted_before AS deleted, sh.changed_at AS until_at
                       FROM channel_settings_history sh WHERE sh.channel_id = %1$s.id AND sh.changed_at > %2$s
                       UNION ALL
                       SELECT 9223372036854775807, %1$s.visibility, %1$s.unlisted, %1$s.ttl_seconds,
                              %1$s.deleted_at IS NOT NULL, TIMESTAMPTZ 'infinity') q)""".formatted(channel, floor);
    }

    /**
     * Whether the artifact of {@code head} lay, live, in channel {@code channelId} at {@code moment}: its
     * latest revision accepted by then put it there and is no delete. A policy change at that moment
     * could move only such artifacts into or out of anyone's D; one that came later has its own change.
     */
    public static String heldInChannelAt(String head, String channelId, String moment) {
        return """
                EXISTS (SELECT 1 FROM (
                        SELECT w.channel_id, w.op FROM artifact_revisions w
                        WHERE w.community_id = %1$s.community_id AND w.d = %1$s.d AND w.kind = %4$d AND w.accepted_at <= %3$s
                        ORDER BY w.accepted_at DESC, w.event_id DESC LIMIT 1) lw
                    WHERE lw.channel_id = %2$s AND lw.op <> 'delete')""".formatted(head, channelId, moment, Kinds.ARTIFACT_REVISION);
    }

    /**
     * Whether a reader's membership decided if the artifacts of the channel of recorded policy change
     * {@code settings} were in its D under that change's settings before or after it: the channel was
     * durable and private, or unlisted when there is no scope (see {@link #membershipDecidesDiscovery}).
     */
    public static String membershipDecidedAtChange(String settings, boolean scoped) {
        StringBuilder either = new StringBuilder("(");
        for (ChangeSide side : ChangeSide.values()) {
            String column = settings + ".%s" + side.suffix();
            if (side == ChangeSide.AFTER) {
                either.append(" OR ");
            }
            either.append("(NOT ")
                    .append(column.formatted("deleted"))
                    .append(" AND ")
                    .append(column.formatted("ttl_seconds"))
                    .append(" IS NULL AND (")
                    .append(column.formatted("visibility"))
                    .append(" = 'private'")
                    .append(scoped ? "" : " OR " + column.formatted("unlisted"))
                    .append("))");
        }
        return either.append(")").toString();
    }

    /** Which settings of a recorded policy change: those it replaced or those it made. */
    public enum ChangeSide {
        BEFORE,
        AFTER;

        String suffix() {
            return this == BEFORE ? "_before" : "_after";
        }
    }

    /**
     * Whether {@code channel} was in the reader's D just before or just after a recorded policy change
     * ({@code settings}, a row of {@code channel_settings_history}), with the reader's memberships as
     * they were at that moment: the change moved the channel's artifacts into or out of the reader's D
     * exactly when the two differ (PROTOCOL 4.4). A reader for whom they agree hears nothing of it.
     */
    public static String channelInDAtChange(String settings, String channel, ChangeSide side, boolean scoped) {
        return channelInDAtChange(settings, channel, side, scoped, ReaderTerms.BOUND);
    }

    static String channelInDAtChange(
            String settings, String channel, ChangeSide side, boolean scoped, ReaderTerms reader) {
        String column = settings + ".%s" + side.suffix();
        String member = """
                EXISTS (SELECT 1 FROM channel_membership_spans ms WHERE ms.channel_id = %1$s.id AND ms.pubkey = %2$s
                        AND ms.started_at <= %3$s.changed_at AND COALESCE(ms.ended_at, 'infinity') > %3$s.changed_at)""".formatted(channel, reader.pubkey(), settings);
        String open = column.formatted("visibility") + " = 'open'";
        String discoverable = scoped
                ? "(" + channel + ".id = ANY (" + reader.scope() + ") AND (" + open + " OR " + member + "))"
                : "((" + open + " AND NOT " + column.formatted("unlisted") + ") OR " + member + ")";
        return "(NOT " + column.formatted("deleted") + " AND " + column.formatted("ttl_seconds") + " IS NULL AND "
                + discoverable + ")";
    }

    private static String eitherScope(ReaderTerms reader, Function<Boolean, String> predicate) {
        return "(CASE WHEN " + reader.scope() + " IS NULL THEN " + predicate.apply(false) + " ELSE "
                + predicate.apply(true) + " END)";
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
