package chat.buzz.relay.incremental;

import static chat.buzz.relay.access.AccessHistorySql.channelInDAtChange;
import static chat.buzz.relay.access.AccessHistorySql.heldInChannelAt;
import static chat.buzz.relay.access.AccessHistorySql.membershipDecidedAtChange;
import static chat.buzz.relay.access.AccessSql.liveHead;
import static chat.buzz.relay.access.AccessSql.membershipDecidesDiscovery;

import chat.buzz.relay.access.AccessHistorySql.ChangeSide;
import chat.buzz.relay.database.PlainStatements;
import chat.buzz.relay.database.PositionalSql;
import chat.buzz.relay.incremental.Cursor.Position;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;

/**
 * The SQL of a delta page's candidates: what may have changed for the reader since the window's start,
 * keys only, in change order. Three sources: every head change of the community, the reader's own
 * membership changes, and every recorded channel policy change (PROTOCOL 4.4), each of the last two
 * standing for every artifact of its channel.
 */
final class DeltaCandidates {
    /** Source 1 was the move records of channels the reader could read; head changes now cover moves. */
    static final int MEMBERSHIP_SOURCE = 2;
    /** A channel's visibility, unlisted flag or TTL changed, or it was deleted (channel_settings_history). */
    static final int SETTINGS_SOURCE = 3;

    private final Handle handle;
    private final long community;
    private final String reader;

    DeltaCandidates(Handle handle, long community, String reader) {
        this.handle = handle;
        this.community = community;
        this.reader = reader;
    }

    /**
     * The heads a membership or policy change stands for, as lateral {@code h}: the live heads of the
     * change's channel after the window's start, in id order, that the previous session did not judge.
     * Filled with the change's alias ({@code %1$s}), its time ({@code %2$s}) and source ({@code %3$s}),
     * the prefix of its judged placeholders ({@code %4$s}) and what else a head must meet ({@code %5$s}).
     */
    private static final String CHANNEL_HEADS = """
            CROSS JOIN LATERAL (
                SELECT a.d
                FROM artifact_heads a
                JOIN events e ON e.id = a.head_event_id
                WHERE a.channel_id = %1$s.channel_id
                  AND a.d >= CASE WHEN (%2$s, %3$s) > (:afterTime, :afterSource)
                                  THEN CAST(:lowestD AS uuid) ELSE :afterD END
                  AND (%2$s, %3$s, a.d) > (:afterTime, :afterSource, :afterD)
                  AND <liveHead> %5$s
                  AND NOT (<%4$sJudgedFirst> OR <%4$sJudgedLater>)
                ORDER BY a.d LIMIT :examine) h""";

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
     * membership change ({@code %1$s}) and a policy change ({@code %2$s}) stand for are {@link #CHANNEL_HEADS}.
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
                 %1$s
                 WHERE m.pubkey = :reader AND c.community_id = :community <membershipInScope>
                   AND (<membershipDecidesDiscovery> OR <settingsChangedSince>)
                   AND m.sync_modified_at >= :afterTime
                   AND (m.sync_modified_at, :membershipSource) >= (:afterTime, :afterSource)
                 ORDER BY m.sync_modified_at, h.d LIMIT :examine)
                UNION ALL
                (SELECT sh.changed_at, :settingsSource, h.d, <settingsXid>, false
                 FROM channel_settings_history sh
                 JOIN channels c ON c.id = sh.channel_id
                 %2$s
                 WHERE sh.community_id = :community <settingsInScope>
                   AND <settingsInDBefore> <> <settingsInDAfter>
                   AND sh.changed_at >= :afterTime
                   AND (sh.changed_at, :settingsSource) >= (:afterTime, :afterSource)
                 ORDER BY sh.changed_at, h.d LIMIT :examine)
            ) k
            ORDER BY k.ts, k.source, k.d
            LIMIT :examine
            """.formatted(
            CHANNEL_HEADS.formatted("m", "m.sync_modified_at", ":membershipSource", "membership", ""),
            CHANNEL_HEADS.formatted("sh", "sh.changed_at", ":settingsSource", "settings", "AND <heldAtChange>"));

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

    /** Which statement a delta page's candidates need: the previous session a bootstrap or not, a scope or not. */
    private record Shape(boolean afterBootstrap, boolean scoped) {

        /** The fragments {@link #DELTA_CANDIDATES} is filled with for this shape, by placeholder. */
        Map<String, String> fragments() {
            String headXid = IncrementalQueries.WRITER_XID.formatted("a");
            String membershipXid = IncrementalQueries.WRITER_XID.formatted("m");
            String settingsXid = IncrementalQueries.WRITER_XID.formatted("sh");
            String headFirst = judgedByFirstPage(headXid);
            String headLater = judgedByLaterStep(headXid, "(a.modified_at, :headSource, a.d)");
            // A bootstrap judged heads only, each with the reader's memberships and the channels' settings
            // as its snapshot saw them: an access change a later step saw is judged for the heads after it.
            String bootstrapPosition = "(a.modified_at, :headSource, a.d)";
            String inScope = scoped ? "AND %s.channel_id = ANY (CAST(:scope AS uuid[]))" : "";
            Map<String, String> fragments = new HashMap<>();
            fragments.put("headXid", headXid);
            fragments.put("membershipXid", membershipXid);
            fragments.put("settingsXid", settingsXid);
            fragments.put("headJudged", afterBootstrap ? headFirst : "(" + headFirst + " OR " + headLater + ")");
            fragments.put("headUpsertSent", afterBootstrap ? headLater : "false");
            fragments.put("membershipJudgedFirst", judgedByFirstPage(membershipXid));
            fragments.put(
                    "membershipJudgedLater",
                    judgedByLaterStep(
                            membershipXid,
                            afterBootstrap ? bootstrapPosition : "(m.sync_modified_at, :membershipSource, a.d)"));
            fragments.put("membershipInScope", inScope.formatted("m"));
            fragments.put("membershipDecidesDiscovery", membershipDecidesDiscovery("c", scoped));
            fragments.put("settingsJudgedFirst", judgedByFirstPage(settingsXid));
            fragments.put(
                    "settingsJudgedLater",
                    judgedByLaterStep(
                            settingsXid, afterBootstrap ? bootstrapPosition : "(sh.changed_at, :settingsSource, a.d)"));
            fragments.put("settingsInScope", inScope.formatted("sh"));
            fragments.put("settingsInDBefore", channelInDAtChange("sh", "c", ChangeSide.BEFORE, scoped));
            fragments.put("settingsInDAfter", channelInDAtChange("sh", "c", ChangeSide.AFTER, scoped));
            fragments.put(
                    "settingsChangedSince",
                    SETTINGS_CHANGED_IN_WINDOW
                            .replace("<membershipDecidedAtChange>", membershipDecidedAtChange("x", scoped))
                            .replace("<settingsRowJudged>", settingsRowSeen(afterBootstrap)));
            fragments.put("liveHead", liveHead("a", "e"));
            fragments.put("heldAtChange", heldInChannelAt("a", "sh.channel_id", "sh.changed_at"));
            return fragments;
        }

        /** {@link #DELTA_CANDIDATES} with every placeholder filled once (a fragment is not searched again). */
        String sql() {
            Map<String, String> fragments = fragments();
            return PLACEHOLDER.matcher(DELTA_CANDIDATES).replaceAll(found -> {
                String fragment = fragments.get(found.group(1));
                if (fragment == null) {
                    throw new IllegalStateException("no fragment for <" + found.group(1) + ">");
                }
                return Matcher.quoteReplacement(fragment);
            });
        }
    }

    private static final Pattern PLACEHOLDER = Pattern.compile("<(\\w+)>");

    /**
     * Each shape's statement in positional form, made once: a delta page's candidates go to the driver as
     * plain JDBC. Filling these fragments and Jdbi's statement layer took more of the relay's CPU on a
     * no-change delta than the driver's work for this statement (docs/benchmarks.md).
     */
    private static final Map<Shape, PositionalSql> STATEMENTS = statements();

    private static Map<Shape, PositionalSql> statements() {
        Map<Shape, PositionalSql> statements = new HashMap<>();
        for (boolean afterBootstrap : new boolean[] {false, true}) {
            for (boolean scoped : new boolean[] {false, true}) {
                Shape shape = new Shape(afterBootstrap, scoped);
                statements.put(shape, PositionalSql.of(shape.sql()));
            }
        }
        return Map.copyOf(statements);
    }

    /**
     * The next {@code examine} delta candidates after the window's start, in change order. Only keys
     * come back; after no change this is the whole of a delta page's work.
     */
    List<Candidate> next(List<String> scope, DeltaWindow window, int examine) {
        PositionalSql statement = STATEMENTS.get(new Shape(window.prior().bootstrap(), !scope.isEmpty()));
        return PlainStatements.on(handle)
                .list(
                        statement.sql(),
                        statement.binding(
                                (bound, position, name) -> bind(bound, position, name, scope, window, examine)),
                        row -> new Candidate(
                                new Position(row.getLong(1), row.getInt(2), row.getObject(3, UUID.class)),
                                row.getLong(4),
                                row.getBoolean(5)));
    }

    /** The value of the statement's parameter {@code name}, at {@code position}. */
    private void bind(
            PreparedStatement bound, int position, String name, List<String> scope, DeltaWindow window, int examine)
            throws SQLException {
        JudgedRows prior = window.prior();
        Position after = window.after();
        switch (name) {
            case "community" -> bound.setLong(position, community);
            case "reader" -> bound.setString(position, reader);
            case "scope" -> PlainStatements.bindTextArray(bound, position, scope);
            case "headSource" -> bound.setInt(position, IncrementalQueries.HEAD_SOURCE);
            case "membershipSource" -> bound.setInt(position, MEMBERSHIP_SOURCE);
            case "settingsSource" -> bound.setInt(position, SETTINGS_SOURCE);
            case "afterTime" -> bound.setObject(position, IncrementalQueries.moment(after.micros()));
            case "afterSource" -> bound.setInt(position, after.source());
            case "afterD" -> bound.setObject(position, after.d());
            case "lowestD" -> bound.setObject(position, Position.LOWEST_ID);
            case "xmax" -> bound.setLong(position, window.snapshotXmax());
            case "floorMicros" -> bound.setLong(position, window.floorMicros());
            case "priorFirst" -> bound.setString(position, prior.first().text());
            case "laterMicros" ->
                bindArray(
                        bound, position, "bigint", prior.later(), s -> s.after().micros());
            case "laterSources" ->
                bindArray(
                        bound,
                        position,
                        "integer",
                        prior.later(),
                        s -> s.after().source());
            case "laterDs" ->
                bindArray(
                        bound,
                        position,
                        "text",
                        prior.later(),
                        s -> s.after().d().toString());
            case "laterSnapshots" ->
                bindArray(
                        bound,
                        position,
                        "text",
                        prior.later(),
                        s -> s.snapshot().text());
            case "examine" -> bound.setInt(position, examine);
            default -> throw new IllegalStateException("no value for :" + name);
        }
    }

    private static void bindArray(
            PreparedStatement statement,
            int position,
            String elementType,
            List<JudgedRows.Step> steps,
            Function<JudgedRows.Step, Object> element)
            throws SQLException {
        statement.setArray(
                position,
                statement
                        .getConnection()
                        .createArrayOf(elementType, steps.stream().map(element).toArray()));
    }

    /**
     * Whether the previous session read settings history row {@code x} from before its position on.
     * A bootstrap's later steps stand at head positions, which say nothing of when a settings row was
     * read, so for a bootstrap only its first page counts (counting less only sends more).
     */
    private static String settingsRowSeen(boolean afterBootstrap) {
        String xid = IncrementalQueries.WRITER_XID.formatted("x");
        String first = judgedByFirstPage(xid);
        return afterBootstrap
                ? first
                : "(" + first + " OR "
                        + judgedByLaterStep(xid, "(x.changed_at, :settingsSource, CAST(:lowestD AS uuid))") + ")";
    }

    private static String judgedByFirstPage(String xid) {
        return JUDGED_BY_FIRST_PAGE.replace("<xid>", xid).strip();
    }

    private static String judgedByLaterStep(String xid, String position) {
        return JUDGED_BY_LATER_STEP
                .replace("<xid>", xid)
                .replace("<position>", position)
                .strip();
    }

    /**
     * Whether an access change that a bootstrap reads its heads under happened, at or after
     * {@code sinceMicros}, in a transaction {@code seen} could not see: a membership of the reader in
     * the community started, ended or restarted, or a channel of the community changed its policy.
     */
    private static final String ACCESS_CHANGED_UNSEEN = """
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
            """;

    boolean accessChangedUnseen(TxSnapshot seen, long snapshotXmax, long sinceMicros) {
        return handle.createQuery(ACCESS_CHANGED_UNSEEN)
                .define("membershipXid", IncrementalQueries.WRITER_XID.formatted("m"))
                .define("settingsXid", IncrementalQueries.WRITER_XID.formatted("sh"))
                .bind("community", community)
                .bind("reader", reader)
                .bind("xmax", snapshotXmax)
                .bind("seen", seen.text())
                .bind("sinceMicros", sinceMicros)
                .mapTo(Boolean.class)
                .one();
    }

    /**
     * A delta candidate: where it stands in change order, the transaction that wrote its row, and
     * whether a bootstrap already sent it if it is in D.
     */
    record Candidate(Position position, long xid, boolean upsertSent) {}
}
