package chat.buzz.relay.access;

import chat.buzz.protocol.Kinds;

/**
 * The read rules of {@link AccessSql} over the past, as SQL fragments: what a reader could have held
 * since its floor (the artifact's revisions, the reader's membership spans and the channel's settings
 * history), and what a recorded policy change ({@code channel_settings_history}) did to a reader's D.
 * Aliases, binds and {@link ReaderTerms} work as in {@link AccessSql}.
 */
public final class AccessHistorySql {
    private AccessHistorySql() {}

    /** The lower bound of {@link #couldHaveHeld}, given in microseconds since the epoch. */
    private static String floor(ReaderTerms reader) {
        return """
                (TIMESTAMPTZ 'epoch' + CAST(%s AS bigint) * INTERVAL '1 microsecond')""".formatted(reader.floorMicros());
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
        return AccessSql.eitherScope(reader, scoped -> couldHaveHeld(head, scoped, reader));
    }

    static String couldHaveHeld(String head, boolean scoped, ReaderTerms reader) {
        String floor = floor(reader);
        String from = """
                GREATEST(v.held_from, p.from_at, %s)""".formatted(floor);
        String until = """
                LEAST(v.held_until, p.until_at)""";
        String memberDuringHold = """
                EXISTS (SELECT 1 FROM channel_membership_spans s WHERE s.channel_id = hc.id AND s.pubkey = %s
                        AND s.started_at < %s AND COALESCE(s.ended_at, 'infinity') > %s)""".formatted(reader.pubkey(), until, from);
        String discoverableDuringHold =
                scoped ? """
                (hc.id = ANY (%s) AND (p.visibility = 'open' OR %s))""".formatted(reader.scope(), memberDuringHold) : """
                ((p.visibility = 'open' AND NOT p.unlisted) OR %s)""".formatted(memberDuringHold);
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
     * Whether the reader's previous session already took the artifact of {@code head} out of the reader's
     * copy: it was outside D(reader, scope) at every moment since that session took the snapshot of its last
     * step ({@code :toldThrough}, microseconds; 0 when unknown), and every row that decided the artifact's place in D between the floor
     * and then was judged by that session (visible to one of its steps, {@code :priorStepMicros} and
     * {@code :priorStepSnapshots}, and stamped after the step's start), so that session's last word on it
     * was a removal or nothing. The rows are those that can take the artifact out of a reader's D: its
     * revisions, their redactions, the ends of the reader's membership spans and the settings changes of
     * every channel it lay in. A start of a span the session did not see only kept something from the
     * reader, so it needs no looking at. A row the session did not
     * judge (one that committed late, say) makes this false, and the reader hears the removal again: a
     * repeat is harmless, a missed removal is not. Row versions are told apart by their writer's
     * transaction, widened against {@code :xmax} as the incremental queries' {@code WRITER_XID} does.
     */
    static String toldLeft(String head, boolean scoped) {
        ReaderTerms sinceTold = new ReaderTerms(ReaderTerms.BOUND.pubkey(), ReaderTerms.BOUND.scope(), ":toldThrough");
        String band = """
                BETWEEN %s AND (TIMESTAMPTZ 'epoch' + CAST(:toldThrough AS bigint) * INTERVAL '1 microsecond')""".formatted(floor(ReaderTerms.BOUND));
        return """
                (CAST(:toldThrough AS bigint) > CAST(:floor AS bigint)
                 AND NOT %1$s
                 AND NOT EXISTS (
                        SELECT 1 FROM artifact_revisions tr JOIN events tev ON tev.id = tr.event_id
                        WHERE tr.community_id = %2$s.community_id AND tr.d = %2$s.d AND tr.kind = %3$d
                          AND ((tr.accepted_at %4$s AND NOT %5$s)
                               OR (tev.redacted_at %4$s AND NOT %6$s)
                               OR EXISTS (SELECT 1 FROM channel_membership_spans ts
                                          WHERE ts.channel_id = tr.channel_id AND ts.pubkey = :reader
                                            AND ts.ended_at %4$s AND NOT %7$s)
                               OR EXISTS (SELECT 1 FROM channel_settings_history tsh
                                          WHERE tsh.channel_id = tr.channel_id AND tsh.changed_at %4$s AND NOT %8$s))))""".formatted(
                        couldHaveHeld(head, scoped, sinceTold),
                        head,
                        Kinds.ARTIFACT_REVISION,
                        band,
                        judgedByPriorSession("tr", "tr.accepted_at"),
                        judgedByPriorSession("tev", "tev.redacted_at"),
                        judgedByPriorSession("ts", "ts.ended_at"),
                        judgedByPriorSession("tsh", "tsh.changed_at"));
    }

    /** Whether a step of the previous session saw the row version of {@code alias}, stamped {@code stamp}, after its start. */
    private static String judgedByPriorSession(String alias, String stamp) {
        return """
                EXISTS (SELECT 1 FROM unnest(CAST(:priorStepMicros AS bigint[]), CAST(:priorStepSnapshots AS text[])) AS ps(micros, snapshot)
                        WHERE %2$s > TIMESTAMPTZ 'epoch' + ps.micros * INTERVAL '1 microsecond'
                          AND pg_visible_in_snapshot(CAST(CAST(CAST(:xmax AS bigint) - ((CAST(:xmax AS bigint) - CAST(CAST(%1$s.xmin AS text) AS bigint)) %% 4294967296 + 4294967296) %% 4294967296 AS text) AS xid8), CAST(ps.snapshot AS pg_snapshot)))""".formatted(alias, stamp);
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
     * Whether the settings of {@code channel} changed after the bound reader joined it within its window:
     * after the start of the reader's first membership span of the channel that began after {@code :floor}
     * (a row of channel_settings_history). Then membership may have decided discovery of the channel at
     * some moment since that join even where it does not now, so what the join sends cannot lean on the
     * channel's settings now: a reader who joined an unlisted channel and saw it listed before the join
     * was handled holds none of its artifacts, and the listing, judged against the membership it found,
     * brought none. A change before that first join was judged against the reader as a non-member, and
     * told it what it needed then; with no join in the window nothing is repeated either.
     */
    public static String settingsChangedSinceJoinedInWindow(String channel) {
        ReaderTerms reader = ReaderTerms.BOUND;
        return """
                EXISTS (SELECT 1 FROM channel_settings_history fh WHERE fh.channel_id = %1$s.id AND fh.changed_at > (
                        SELECT min(js.started_at) FROM channel_membership_spans js
                        WHERE js.channel_id = %1$s.id AND js.pubkey = %2$s AND js.started_at > %3$s))""".formatted(channel, reader.pubkey(), floor(reader));
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

    /** Which settings of a recorded policy change: those it replaced or those it made. */
    public enum ChangeSide {
        BEFORE,
        AFTER;

        /** How the change's columns for these settings end: {@code visibility_before}, {@code visibility_after}. */
        String suffix() {
            return this == BEFORE ? "_before" : "_after";
        }
    }

    /**
     * Whether a reader's membership decided if the artifacts of the channel of recorded policy change
     * {@code settings} were in its D under that change's settings before or after it: the channel was
     * durable and private, or unlisted when there is no scope (see
     * {@link AccessSql#membershipDecidesDiscovery}).
     */
    public static String membershipDecidedAtChange(String settings, boolean scoped) {
        return """
                (%s OR %s)""".formatted(
                        membershipDecidedOnSide(settings, ChangeSide.BEFORE, scoped),
                        membershipDecidedOnSide(settings, ChangeSide.AFTER, scoped));
    }

    private static String membershipDecidedOnSide(String settings, ChangeSide side, boolean scoped) {
        String fragment = scoped ? """
                (NOT %1$s.deleted%2$s AND %1$s.ttl_seconds%2$s IS NULL AND (%1$s.visibility%2$s = 'private'))""" : """
                (NOT %1$s.deleted%2$s AND %1$s.ttl_seconds%2$s IS NULL AND (%1$s.visibility%2$s = 'private' OR %1$s.unlisted%2$s))""";
        return fragment.formatted(settings, side.suffix());
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

    /** {@link #channelInDAtChange} for readers named by columns, each with or without a scope (NULL). */
    public static String channelInDAtChange(String settings, String channel, ChangeSide side, ReaderTerms reader) {
        return AccessSql.eitherScope(reader, scoped -> channelInDAtChange(settings, channel, side, scoped, reader));
    }

    static String channelInDAtChange(
            String settings, String channel, ChangeSide side, boolean scoped, ReaderTerms reader) {
        String member = """
                EXISTS (SELECT 1 FROM channel_membership_spans ms WHERE ms.channel_id = %1$s.id AND ms.pubkey = %2$s
                        AND ms.started_at <= %3$s.changed_at AND COALESCE(ms.ended_at, 'infinity') > %3$s.changed_at)""".formatted(channel, reader.pubkey(), settings);
        String discoverable = scoped
                ? """
                (%3$s.id = ANY (%4$s) AND (%1$s.visibility%2$s = 'open' OR %5$s))""".formatted(settings, side.suffix(), channel, reader.scope(), member)
                : """
                ((%1$s.visibility%2$s = 'open' AND NOT %1$s.unlisted%2$s) OR %3$s)""".formatted(settings, side.suffix(), member);
        return """
                (NOT %1$s.deleted%2$s AND %1$s.ttl_seconds%2$s IS NULL AND %3$s)""".formatted(settings, side.suffix(), discoverable);
    }
}
