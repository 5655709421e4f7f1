package chat.buzz.relay.incremental;

import chat.buzz.relay.incremental.Cursor.Position;
import java.util.ArrayList;
import java.util.List;

/**
 * The change rows a session judged, as the session after it needs to know them so that it sends
 * nothing twice (PROTOCOL 4.2). Each step says: every row after {@code after} that {@code snapshot}
 * could see was judged, because every page from the one that began at {@code after} read its range
 * with that snapshot or a later one. The first step begins before everything and holds the snapshot
 * of the session's first page; a later page adds a step only when it delivered a row the last step
 * could not see, such as a write that committed while the session was paused.
 *
 * <p>For a bootstrap the steps speak of heads only: a bootstrap page judges heads, not the reader's
 * membership rows. A membership change a bootstrap step could see is judged for the heads after that
 * step's start, which were read with the change in effect.
 *
 * <p>Leaving a step out only makes the next session send more, never less, so a full list drops its
 * oldest step after the first.
 *
 * <p>{@code lastStepAt} is the database time (micros) of the page that took the last step's snapshot, 0
 * when unknown (cursors before version 6): the judge's "told left" leans on everything stamped until then.
 */
record JudgedRows(boolean bootstrap, List<Step> steps, long lastStepAt) {
    /** Nothing judged: the next session sends its whole overlap. */
    static final JudgedRows NONE = new JudgedRows(false, List.of());
    /**
     * A cursor carries at most this many steps. A step is added only after a pause in which others
     * wrote what the session then delivered, so most cursors hold one or two; the cap bounds the rare
     * session resumed many times (about 300 bytes a step at most, 64 bytes a typical one).
     */
    static final int MAX_STEPS = 16;

    record Step(Position after, TxSnapshot snapshot) {}

    JudgedRows {
        steps = List.copyOf(steps);
    }

    /** Steps whose time is not known. */
    JudgedRows(boolean bootstrap, List<Step> steps) {
        this(bootstrap, steps, 0);
    }

    /** What a session judged once its first page, read in {@code snapshot}, was answered. */
    static JudgedRows firstPage(boolean bootstrap, TxSnapshot snapshot) {
        return firstPage(bootstrap, snapshot, 0);
    }

    /** The same, the page's snapshot taken at database time {@code nowMicros}. */
    static JudgedRows firstPage(boolean bootstrap, TxSnapshot snapshot, long nowMicros) {
        return snapshot.known()
                ? new JudgedRows(bootstrap, List.of(new Step(Position.before(0), snapshot)), nowMicros)
                : NONE;
    }

    /** The same steps, the last one's time as a version 6 cursor says. */
    JudgedRows withLastStepAt(long micros) {
        return steps.isEmpty() ? this : new JudgedRows(bootstrap, steps, micros);
    }

    /** Whether a row at {@code position} written by transaction {@code xid} is already judged. */
    boolean covers(Position position, long xid) {
        for (Step step : steps) {
            if (position.compareTo(step.after()) > 0 && step.snapshot().sees(xid)) {
                return true;
            }
        }
        return false;
    }

    /** The same, plus every row after {@code after} that {@code snapshot} could see. */
    JudgedRows extendedBy(Position after, TxSnapshot snapshot) {
        return extendedBy(after, snapshot, 0);
    }

    /** The same, the snapshot taken at database time {@code nowMicros}. */
    JudgedRows extendedBy(Position after, TxSnapshot snapshot, long nowMicros) {
        if (!snapshot.known() || steps.isEmpty()) {
            return this;
        }
        List<Step> longer = new ArrayList<>(steps);
        longer.add(new Step(after, snapshot));
        if (longer.size() > MAX_STEPS) {
            longer.remove(1);
        }
        return new JudgedRows(bootstrap, longer, nowMicros);
    }

    /** The first step's snapshot; {@link TxSnapshot#NONE} when nothing is judged. */
    TxSnapshot first() {
        return steps.isEmpty() ? TxSnapshot.NONE : steps.get(0).snapshot();
    }

    /** The last step's snapshot; {@link TxSnapshot#NONE} when nothing is judged. */
    TxSnapshot last() {
        return steps.isEmpty() ? TxSnapshot.NONE : steps.get(steps.size() - 1).snapshot();
    }

    /** The steps after the first, which only rows written during the session need. */
    List<Step> later() {
        return steps.isEmpty() ? List.of() : steps.subList(1, steps.size());
    }
}
