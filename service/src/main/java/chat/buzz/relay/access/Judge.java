package chat.buzz.relay.access;

import chat.buzz.relay.database.Sql;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The one judge of what a reader hears about one artifact, for incremental reads and WebSocket sync
 * alike (PROTOCOL 4.1, 4.2, 5): in the reader's D, an upsert (unless the previous session already sent
 * it); outside D but the reader could have held it since its floor and was not already told it left,
 * a remove whose reason tells nothing the reader could not read, naming a channel only when that channel
 * is in the reader's D now; otherwise nothing, so no id reaches a reader who never could have seen it,
 * and a former member hears once that an artifact left and nothing of it after.
 *
 * <p>The same rule exists twice, as {@link #decide} over {@link Facts} and as SQL ({@link #facts} and
 * the verdict columns), because pages must be cut by the database; a test runs both over every
 * combination of facts. Queries never decide a verdict themselves: they join {@link #facts} and select
 * {@link #verdictColumns}, and Java reads the row back with {@link Verdict#of}.
 */
public final class Judge {
    private Judge() {}

    /** Why an artifact left a reader's D, as far as the reader may be told (PROTOCOL 4.1). */
    public enum Reason {
        /** The reader can read the channel the artifact left by a move. */
        MOVED,
        /** The head is deleted and the reader can read its channel. */
        DELETED,
        /** Anything else: the reader learns only that the artifact is gone. */
        UNAVAILABLE;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What the reader hears.
     *
     * @param kind          upsert, remove or nothing
     * @param reason        a remove's reason, else null
     * @param channelToName the channel a removal marker may name in {@code h}, else null
     */
    public record Verdict(Kind kind, Reason reason, UUID channelToName) {
        public enum Kind {
            UPSERT,
            REMOVE,
            NOTHING
        }

        public static final Verdict UPSERT = new Verdict(Kind.UPSERT, null, null);
        public static final Verdict NOTHING = new Verdict(Kind.NOTHING, null, null);

        public static Verdict remove(Reason reason, UUID channelToName) {
            return new Verdict(Kind.REMOVE, reason, channelToName);
        }

        /** The verdict of a row that selected {@link #verdictColumns}. */
        public static Verdict of(String verdict, String reason, UUID named) {
            if (verdict == null) {
                return NOTHING;
            }
            return switch (verdict) {
                case "upsert" -> UPSERT;
                case "remove" -> remove(Reason.valueOf(reason.toUpperCase(Locale.ROOT)), named);
                default -> throw new IllegalArgumentException("not a verdict: " + verdict);
            };
        }
    }

    /**
     * Everything the judge decides on, all as of now except {@code couldHaveHeld}.
     *
     * @param inD                whether the head is in D(reader, scope)
     * @param alreadySent        whether the previous session already sent this head as an upsert
     * @param couldHaveHeld      whether the artifact was in D(reader, scope) at some moment after the floor
     * @param toldLeft           whether what the reader was last sent already took the artifact out of its
     *                           copy: a later change of an artifact it cannot read then tells it nothing
     * @param leftReadable       whether the artifact last left a channel by a move and the reader can read that channel
     * @param deletedReadable    whether the head is deleted and the reader can read its channel
     * @param leftNameable       the channel the artifact last left by a move, when it is in the reader's D, else null
     * @param channelNameable    the artifact's channel, when it is in the reader's D, else null
     */
    public record Facts(
            boolean inD,
            boolean alreadySent,
            boolean couldHaveHeld,
            boolean toldLeft,
            boolean leftReadable,
            boolean deletedReadable,
            UUID leftNameable,
            UUID channelNameable) {}

    public static Verdict decide(Facts facts) {
        if (facts.inD()) {
            return facts.alreadySent() ? Verdict.NOTHING : Verdict.UPSERT;
        }
        if (!facts.couldHaveHeld() || facts.toldLeft()) {
            return Verdict.NOTHING;
        }
        Reason reason = reason(facts.leftReadable(), facts.deletedReadable());
        UUID named = facts.leftNameable() != null ? facts.leftNameable() : facts.channelNameable();
        return Verdict.remove(reason, named);
    }

    private static Reason reason(boolean leftReadable, boolean deletedReadable) {
        if (leftReadable) {
            return Reason.MOVED;
        }
        return deletedReadable ? Reason.DELETED : Reason.UNAVAILABLE;
    }

    /**
     * The reader's removal floor: the start of the window a session or subscription answers for, but
     * never before the community's policy stamp. A stamp advance is a reset, which answers for
     * everything before it; a policy change delivered as entries leaves the stamp alone, and "could have
     * held" reads the channel's settings history back to the floor instead.
     */
    public static long floor(long windowStartMicros, long policyStampMicros) {
        return Math.max(windowStartMicros, policyStampMicros);
    }

    /**
     * How a query names its reader: bound or by columns ({@link ReaderTerms}), and whether it has a
     * scope, or null when each reader row says (a NULL scope column: none).
     */
    public record Reader(ReaderTerms terms, Boolean scoped, boolean priorSession) {
        /** The single reader bound as parameters, with or without a scope, that nothing was sent before. */
        public static Reader bound(boolean scoped) {
            return new Reader(ReaderTerms.BOUND, scoped, false);
        }

        /**
         * The single reader bound as parameters, whose previous session is bound too ({@code :toldThrough},
         * {@code :priorStepMicros}, {@code :priorStepSnapshots}, {@code :xmax}: see {@link AccessHistorySql#toldLeft}).
         */
        public static Reader boundAfterSession(boolean scoped) {
            return new Reader(ReaderTerms.BOUND, scoped, true);
        }

        /**
         * Readers named by columns of {@code alias}, each with its own scope or none. What each was told
         * is the state of its WebSocket subscription, which keeps the removals it sent and drops a removal
         * it already sent ({@code sync.ToldLeft}): the same rule, {@code toldLeft}, held where the state is.
         */
        public static Reader columnsOf(String alias) {
            return new Reader(ReaderTerms.columnsOf(alias), null, false);
        }

        String toldLeft(String head) {
            return priorSession ? AccessHistorySql.toldLeft(head, scoped) : "false";
        }

        String discoverableHead(String head, String event, String channel) {
            return scoped == null
                    ? AccessSql.discoverableHead(head, event, channel, terms)
                    : AccessSql.discoverableHead(head, event, channel, scoped, terms);
        }

        String couldHaveHeld(String head) {
            return scoped == null
                    ? AccessHistorySql.couldHaveHeld(head, terms)
                    : AccessHistorySql.couldHaveHeld(head, scoped, terms);
        }

        String channelInD(String channel) {
            return scoped == null ? AccessSql.channelInD(channel, terms) : AccessSql.channelInD(channel, scoped, terms);
        }
    }

    /**
     * {@link Facts} as SQL: the columns of alias {@code jf} that {@link #verdictColumns} reads. The verdict
     * reads {@code in_d} and {@code could_have_held} several times; {@code OFFSET 0} keeps PostgreSQL from
     * pulling the lateral subqueries up into the select list, where each reference would evaluate the
     * costly expression again. "Told left" matters only for a head the reader could have held.
     */
    private static final String FACTS = """
            CROSS JOIN LATERAL (SELECT <inD> AS in_d OFFSET 0) jd
            CROSS JOIN LATERAL (SELECT CASE WHEN jd.in_d THEN false ELSE <couldHaveHeld> END AS could_have_held OFFSET 0) jh
            CROSS JOIN LATERAL (SELECT CASE WHEN jh.could_have_held THEN <toldLeft> ELSE false END AS told_left OFFSET 0) jt
            CROSS JOIN LATERAL (
                SELECT jd.in_d, jh.could_have_held, jt.told_left,
                       jh.could_have_held AND <left>.id IS NOT NULL AND <leftReadable> AS left_readable,
                       jh.could_have_held AND <head>.deleted AND <channelReadable> AS deleted_readable,
                       CASE WHEN jh.could_have_held AND <left>.id IS NOT NULL AND <leftInD> THEN <left>.id END AS left_nameable,
                       CASE WHEN jh.could_have_held AND <channelInD> THEN <channel>.id END AS channel_nameable) jf""";

    /**
     * The facts of head {@code head} (its event {@code event}, its channel {@code channel}, the channel
     * it last left by a move {@code left}, a nullable alias: see {@link AccessSql#lastMovedFrom}) for
     * {@code reader}, as lateral joins ending in alias {@code jf}. The costly "could have held" is
     * evaluated only for heads outside D (a CASE guarantees it); the reason and naming facts matter
     * only for heads the reader could have held, and are false or null for every other.
     */
    public static String facts(String head, String event, String channel, String left, Reader reader) {
        return Sql.fill(
                FACTS,
                Map.of(
                        "inD", reader.discoverableHead(head, event, channel),
                        "couldHaveHeld", reader.couldHaveHeld(head),
                        "toldLeft", reader.toldLeft(head),
                        "leftReadable", AccessSql.readable(left, reader.terms()),
                        "channelReadable", AccessSql.readable(channel, reader.terms()),
                        "leftInD", reader.channelInD(left),
                        "channelInD", reader.channelInD(channel),
                        "left", left,
                        "head", head,
                        "channel", channel));
    }

    /**
     * The verdict of {@link #facts} as the columns {@code verdict} ('upsert', 'remove' or NULL for
     * nothing), {@code reason} and {@code named}; {@code alreadySent} is a boolean SQL expression
     * ({@code false} when nothing was sent). Read back with {@link Verdict#of}.
     */
    public static String verdictColumns(String alreadySent) {
        return verdictColumns("jf", alreadySent);
    }

    static String verdictColumns(String facts, String alreadySent) {
        String removed = "(NOT " + facts + ".in_d AND " + facts + ".could_have_held AND NOT " + facts + ".told_left)";
        return "CASE WHEN " + facts + ".in_d THEN CASE WHEN " + alreadySent + " THEN NULL ELSE 'upsert' END"
                + " WHEN " + removed + " THEN 'remove' END AS verdict,"
                + " CASE WHEN " + removed + " THEN " + reasonSql(facts + ".left_readable", facts + ".deleted_readable")
                + " END AS reason,"
                + " CASE WHEN " + removed + " THEN COALESCE(" + facts + ".left_nameable, " + facts
                + ".channel_nameable) END AS named";
    }

    /**
     * The reason a known-ID read gives for a head it does not return (PROTOCOL 4.3 with 4.1): such a
     * read answers every id, so there is no "could have held"; only the reason rule applies.
     */
    public static String knownIdRemoveReason(String head, String channel) {
        return reasonSql("false", head + ".deleted AND " + AccessSql.readable(channel));
    }

    private static String reasonSql(String leftReadable, String deletedReadable) {
        return "(CASE WHEN " + leftReadable + " THEN '" + Reason.MOVED.wire() + "' WHEN " + deletedReadable + " THEN '"
                + Reason.DELETED.wire() + "' ELSE '" + Reason.UNAVAILABLE.wire() + "' END)";
    }
}
