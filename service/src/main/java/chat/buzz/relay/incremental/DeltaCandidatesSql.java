package chat.buzz.relay.incremental;

import static chat.buzz.relay.access.AccessHistorySql.channelInDAtChange;
import static chat.buzz.relay.access.AccessHistorySql.heldInChannelAt;
import static chat.buzz.relay.access.AccessHistorySql.membershipDecidedAtChange;
import static chat.buzz.relay.access.AccessSql.liveHead;
import static chat.buzz.relay.access.AccessSql.membershipDecidesDiscovery;

import chat.buzz.relay.access.AccessHistorySql.ChangeSide;
import chat.buzz.relay.database.Sql;
import java.util.HashMap;
import java.util.Map;

/**
 * The SQL of {@link DeltaCandidates}: each statement and fragment as one text block, filled by
 * {@link Sql#fill}. Three sources: every head change of the community, the reader's own membership
 * changes, and every recorded channel policy change (PROTOCOL 4.4), each of the last two standing for
 * every artifact of its channel.
 */
final class DeltaCandidatesSql {
    private DeltaCandidatesSql() {}

    /**
     * The 64-bit id of the transaction that wrote a row version. Row xids are 32 bits; they are widened
     * against this page's snapshot xmax, which no visible row's xid can be a full wrap behind. Relies on
     * the relay's writes using no subtransactions: a snapshot's in-progress list names top-level
     * transactions only.
     */
    private static final String WRITER_XID = """
            CAST(:xmax AS bigint) - ((CAST(:xmax AS bigint) - CAST(CAST(<alias>.xmin AS text) AS bigint)) % 4294967296 \
            + 4294967296) % 4294967296""";

    /** {@link #WRITER_XID} of the row {@code alias}. */
    static String writerXid(String alias) {
        return Sql.fill(WRITER_XID, "alias", alias);
    }

    /**
     * The heads a membership or policy change stands for, as lateral {@code h}: the live heads of the
     * change's channel after the window's start, in id order, that the previous session did not judge.
     * Filled with the change's alias, its time and source, whether the previous session judged a head
     * with this change, and what else a head must meet ({@code <heldThen>}, empty or an {@code AND}).
     */
    private static final String CHANNEL_HEADS = """
            CROSS JOIN LATERAL (
                SELECT a.d
                FROM artifact_heads a
                JOIN events e ON e.id = a.head_event_id
                WHERE a.channel_id = <change>.channel_id
                  AND a.d >= CASE WHEN (<changedAt>, <source>) > (:afterTime, :afterSource)
                                  THEN CAST(:lowestD AS uuid) ELSE :afterD END
                  AND (<changedAt>, <source>, a.d) > (:afterTime, :afterSource, :afterD)
                  AND <liveHead> <heldThen>
                  AND NOT (<judgedFirst> OR <judgedLater>)
                ORDER BY a.d LIMIT :examine) h""";

    /** A policy change stands only for the heads that lay in its channel when it happened. */
    private static final String HELD_AT_CHANGE = "AND <heldInChannel>";

    /**
     * Every head change of the community (edits, deletes, restores, redactions, moves, whatever channel
     * they happened in), the reader's own membership changes (grants, re-joins, removals, leaves: every
     * live artifact of the channel) and every policy change of a channel of the
     * community, within the scope (every artifact of the channel again). Each source is cut at :examine
     * rows, enough for any page. Rows the previous session judged (see {@link JudgedRows}) are left out:
     * a session after no change is empty. A head row that only a later step of a bootstrap judged is
     * kept, marked: that bootstrap sent it if it was in D, but sends no removes, so it may still have to
     * be removed. A policy change stands only for the live heads of its channel, and only when the change
     * took the channel into or out of the reader's D (with the reader's memberships as they were then),
     * and only for the heads that lay in the channel then: a reader whose D it did not change hears
     * nothing of it, and a head it could not have held (deleted, redacted or arrived later) would only
     * hold a page back. Every other way into or out of D (a
     * write, a move, a delete, a grant, a removal) is a candidate of its own. A deleted or redacted head
     * is never in D, and it left D by a head change, which is its own candidate: a membership or policy
     * change never stands for it, so a page is not held back by heads that could give nothing. A
     * membership change counts
     * where membership decides discovery now, or where it did before or after a change of the channel's
     * settings within the window:
     * a reader added to an unlisted channel that was then listed, and removed again, holds none of its
     * artifacts unless this membership row, which now shows only the removal, brings them. The heads a
     * membership change ({@code <membershipHeads>}) and a policy change ({@code <settingsHeads>}) stand for
     * are {@link #CHANNEL_HEADS}.
     */
    private static final String DELTA_CANDIDATES = """
            SELECT CAST(extract(epoch FROM k.ts) * 1000000 AS bigint) AS micros, k.source, k.d, k.xid, k.upsert_sent
            FROM (
                (SELECT a.modified_at AS ts, :headSource AS source, a.d, <headXid> AS xid, <headUpsertSent> AS upsert_sent
                 FROM artifact_heads a
                 WHERE a.community_id = :community
                   AND a.modified_at >= :afterTime
                   AND (a.modified_at, :headSource, a.d) > (:afterTime, :afterSource, :afterD)
                   AND NOT <headJudged>
                 ORDER BY a.modified_at, a.d LIMIT :examine)
                UNION ALL
                (SELECT m.sync_modified_at, :membershipSource, h.d, <membershipXid>, false
                 FROM channel_members m
                 JOIN channels c ON c.id = m.channel_id
                 <membershipHeads>
                 WHERE m.pubkey = :reader AND c.community_id = :community <membershipInScope>
                   AND (<membershipDecidesDiscovery> OR <settingsChangedSince>)
                   AND m.sync_modified_at >= :afterTime
                   AND (m.sync_modified_at, :membershipSource) >= (:afterTime, :afterSource)
                 ORDER BY m.sync_modified_at, h.d LIMIT :examine)
                UNION ALL
                (SELECT sh.changed_at, :settingsSource, h.d, <settingsXid>, false
                 FROM channel_settings_history sh
                 JOIN channels c ON c.id = sh.channel_id
                 <settingsHeads>
                 WHERE sh.community_id = :community <settingsInScope>
                   AND <settingsInDBefore> <> <settingsInDAfter>
                   AND sh.changed_at >= :afterTime
                   AND (sh.changed_at, :settingsSource) >= (:afterTime, :afterSource)
                 ORDER BY sh.changed_at, h.d LIMIT :examine)
            ) k
            ORDER BY k.ts, k.source, k.d
            LIMIT :examine
            """;

    /**
     * A change of the channel's settings in the session's window (since its floor, not since the page's
     * position: a membership row stands for its channel's heads on every page of the session, and a later
     * page must not drop it because the settings change lies before that page) that the previous session
     * did not see from before it on (its first page, or a later step that began before the change): once
     * a session has read the settings as they are now, a later membership change is judged rightly by
     * today's settings, and counting that change again would re-send a grant that changes no D.
     */
    private static final String SETTINGS_CHANGED_IN_WINDOW = """
            EXISTS (SELECT 1 FROM channel_settings_history x WHERE x.channel_id = c.id
                    AND x.changed_at >= TIMESTAMPTZ 'epoch' + CAST(:floorMicros AS bigint) * INTERVAL '1 microsecond'
                    AND <membershipDecidedAtChange> AND NOT <settingsRowJudged>)""";

    /** Whether the previous session's first page could see the row version written by {@code <xid>}. */
    private static final String JUDGED_BY_FIRST_PAGE = """
            (CAST(:priorFirst AS text) <> ''
             AND pg_visible_in_snapshot(CAST(CAST(<xid> AS text) AS xid8), CAST(NULLIF(CAST(:priorFirst AS text), '') AS pg_snapshot)))
            """;

    /** Whether a later step of the previous session could see it, the row lying after that step's start. */
    private static final String JUDGED_BY_LATER_STEP = """
            EXISTS (SELECT 1
                    FROM unnest(CAST(:laterMicros AS bigint[]), CAST(:laterSources AS integer[]),
                                CAST(:laterDs AS uuid[]), CAST(:laterSnapshots AS text[]))
                         AS j(micros, source, d, snapshot)
                    WHERE <position> > (TIMESTAMPTZ 'epoch' + j.micros * INTERVAL '1 microsecond', j.source, j.d)
                      AND pg_visible_in_snapshot(CAST(CAST(<xid> AS text) AS xid8), CAST(j.snapshot AS pg_snapshot)))
            """;

    /** Judged by one or the other of the previous session's steps. */
    private static final String EITHER = "(<first> OR <later>)";

    /** Restricted to the reader's scope ({@code <alias>} is the row with the channel). */
    private static final String IN_SCOPE = "AND <alias>.channel_id = ANY (CAST(:scope AS uuid[]))";

    /**
     * {@link #DELTA_CANDIDATES} for the previous session a bootstrap or not, a scope or not. A bootstrap
     * judged heads only, each with the reader's memberships and the channels' settings as its snapshot
     * saw them: an access change a later step saw is judged for the heads after it.
     */
    static String deltaCandidates(boolean afterBootstrap, boolean scoped) {
        String headXid = writerXid("a");
        String membershipXid = writerXid("m");
        String settingsXid = writerXid("sh");
        String headFirst = judgedByFirstPage(headXid);
        String headLater = judgedByLaterStep(headXid, "(a.modified_at, :headSource, a.d)");
        String bootstrapPosition = "(a.modified_at, :headSource, a.d)";
        String liveHead = liveHead("a", "e");
        Map<String, String> fragments = new HashMap<>();
        fragments.put("headXid", headXid);
        fragments.put("membershipXid", membershipXid);
        fragments.put("settingsXid", settingsXid);
        fragments.put(
                "headJudged", afterBootstrap ? headFirst : Sql.fill(EITHER, "first", headFirst, "later", headLater));
        fragments.put("headUpsertSent", afterBootstrap ? headLater : "false");
        fragments.put(
                "membershipHeads",
                Sql.fill(
                        CHANNEL_HEADS,
                        "change",
                        "m",
                        "changedAt",
                        "m.sync_modified_at",
                        "source",
                        ":membershipSource",
                        "liveHead",
                        liveHead,
                        "heldThen",
                        "",
                        "judgedFirst",
                        judgedByFirstPage(membershipXid),
                        "judgedLater",
                        judgedByLaterStep(
                                membershipXid,
                                afterBootstrap ? bootstrapPosition : "(m.sync_modified_at, :membershipSource, a.d)")));
        fragments.put("membershipInScope", scoped ? Sql.fill(IN_SCOPE, "alias", "m") : "");
        fragments.put("membershipDecidesDiscovery", membershipDecidesDiscovery("c", scoped));
        fragments.put(
                "settingsChangedSince",
                Sql.fill(
                        SETTINGS_CHANGED_IN_WINDOW,
                        "membershipDecidedAtChange",
                        membershipDecidedAtChange("x", scoped),
                        "settingsRowJudged",
                        settingsRowSeen(afterBootstrap)));
        fragments.put(
                "settingsHeads",
                Sql.fill(
                        CHANNEL_HEADS,
                        "change",
                        "sh",
                        "changedAt",
                        "sh.changed_at",
                        "source",
                        ":settingsSource",
                        "liveHead",
                        liveHead,
                        "heldThen",
                        Sql.fill(
                                HELD_AT_CHANGE,
                                "heldInChannel",
                                heldInChannelAt("a", "sh.channel_id", "sh.changed_at")),
                        "judgedFirst",
                        judgedByFirstPage(settingsXid),
                        "judgedLater",
                        judgedByLaterStep(
                                settingsXid,
                                afterBootstrap ? bootstrapPosition : "(sh.changed_at, :settingsSource, a.d)")));
        fragments.put("settingsInScope", scoped ? Sql.fill(IN_SCOPE, "alias", "sh") : "");
        fragments.put("settingsInDBefore", channelInDAtChange("sh", "c", ChangeSide.BEFORE, scoped));
        fragments.put("settingsInDAfter", channelInDAtChange("sh", "c", ChangeSide.AFTER, scoped));
        return Sql.fill(DELTA_CANDIDATES, fragments);
    }

    /**
     * Whether the previous session read settings history row {@code x} from before its position on.
     * A bootstrap's later steps stand at head positions, which say nothing of when a settings row was
     * read, so for a bootstrap only its first page counts (counting less only sends more).
     */
    private static String settingsRowSeen(boolean afterBootstrap) {
        String xid = writerXid("x");
        String first = judgedByFirstPage(xid);
        return afterBootstrap
                ? first
                : Sql.fill(
                        EITHER,
                        "first",
                        first,
                        "later",
                        judgedByLaterStep(xid, "(x.changed_at, :settingsSource, CAST(:lowestD AS uuid))"));
    }

    private static String judgedByFirstPage(String xid) {
        return Sql.fill(JUDGED_BY_FIRST_PAGE, "xid", xid).strip();
    }

    private static String judgedByLaterStep(String xid, String position) {
        return Sql.fill(JUDGED_BY_LATER_STEP, "xid", xid, "position", position).strip();
    }

    /**
     * Whether an access change that a bootstrap reads its heads under happened, at or after
     * {@code sinceMicros}, in a transaction {@code seen} could not see: a membership of the reader in
     * the community started, ended or restarted, or a channel of the community changed its policy.
     */
    static final String ACCESS_CHANGED_UNSEEN =
            Sql.fill("""
            SELECT EXISTS (
                SELECT 1
                FROM channel_members m
                JOIN channels c ON c.id = m.channel_id
                WHERE m.pubkey = :reader AND c.community_id = :community
                  AND m.sync_modified_at >= TIMESTAMPTZ 'epoch' + CAST(:sinceMicros AS bigint) * INTERVAL '1 microsecond'
                  AND NOT pg_visible_in_snapshot(CAST(CAST(<membershipXid> AS text) AS xid8), CAST(:seen AS pg_snapshot)))
            OR EXISTS (
                SELECT 1
                FROM channel_settings_history sh
                WHERE sh.community_id = :community
                  AND sh.changed_at >= TIMESTAMPTZ 'epoch' + CAST(:sinceMicros AS bigint) * INTERVAL '1 microsecond'
                  AND NOT pg_visible_in_snapshot(CAST(CAST(<settingsXid> AS text) AS xid8), CAST(:seen AS pg_snapshot)))
            """, "membershipXid", writerXid("m"), "settingsXid", writerXid("sh"));
}
