package chat.buzz.relay.incremental;

import chat.buzz.protocol.Limits;
import chat.buzz.relay.incremental.Cursor.Position;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * One page cut from judged candidates in change order: at most {@code limit} entries and about
 * {@link Limits#INCREMENTAL_PAGE_BYTES} of event JSON (the first event always fits), each artifact
 * named at most once (PROTOCOL 4.2), and the position the next page continues after. The rows are
 * read as the database sends them and reading stops at the cut, so a page never holds more than its
 * own events.
 *
 * <p>That position names an artifact only when this page answered the reader with an entry for it.
 * When the page stops at a candidate the reader heard nothing of, the next page resumes just before
 * every row of that candidate's moment and source (or after the last entry among them), so it judges
 * those rows again: a cursor never carries the id of an artifact the reader cannot read (PROTOCOL 4.2),
 * not even sealed. A page that cannot move on that way is {@link #stalled}.
 *
 * @param delivered   the rows this page answered with an entry (or would have, but for an earlier entry
 *                    of the same artifact in the page)
 * @param more        whether candidates remain after {@code resumeAfter}
 * @param resumeAfter where the next page continues (null when nothing was examined)
 */
record PageWalk(List<Entry> entries, List<ChangeRow> delivered, boolean more, Position resumeAfter) {

    /**
     * A page that found no more entries but stopped looking at {@code horizon}, a candidate it judged,
     * continues from there; {@code start} is where this page began.
     */
    PageWalk orUpTo(Optional<Position> horizon, Position start) {
        if (more || horizon.isEmpty()) {
            return this;
        }
        Position last = horizon.get();
        boolean named = delivered.stream().anyMatch(row -> row.position().equals(last));
        return new PageWalk(entries, delivered, true, resumable(last, named, lastNamed(delivered), start));
    }

    static PageWalk of(Iterator<ChangeRow> rows, int limit, int window, Position start) {
        return of(rows, limit, window, start, Limits.INCREMENTAL_PAGE_BYTES);
    }

    /**
     * @param rows       judged candidates in change order
     * @param window     how many rows were asked for: a full window means more may follow it
     * @param start      where this page began: the next one must begin later
     * @param eventBytes the event JSON a page may carry before it ends early
     */
    static PageWalk of(Iterator<ChangeRow> rows, int limit, int window, Position start, long eventBytes) {
        List<Entry> entries = new ArrayList<>();
        List<ChangeRow> delivered = new ArrayList<>();
        Set<UUID> named = new HashSet<>();
        ChangeRow last = null;
        int examined = 0;
        long bytes = 0;
        while (rows.hasNext()) {
            ChangeRow row = rows.next();
            Optional<Entry> entry = row.entry();
            boolean first = entry.isPresent() && !named.contains(row.d());
            long size = first ? entry.get().eventBytes() : 0;
            if (first && (entries.size() == limit || (!entries.isEmpty() && bytes + size > eventBytes))) {
                return new PageWalk(entries, delivered, true, resumeAfter(last, delivered, start));
            }
            if (first) {
                named.add(row.d());
                entries.add(entry.get());
                bytes += size;
            }
            if (entry.isPresent()) {
                delivered.add(row);
            }
            last = row;
            examined++;
        }
        return new PageWalk(entries, delivered, examined >= window, resumeAfter(last, delivered, start));
    }

    private static Position resumeAfter(ChangeRow last, List<ChangeRow> delivered, Position start) {
        if (last == null) {
            return null;
        }
        boolean named = !delivered.isEmpty() && delivered.get(delivered.size() - 1) == last;
        return resumable(last.position(), named, lastNamed(delivered), start);
    }

    private static Optional<Position> lastNamed(List<ChangeRow> delivered) {
        return delivered.isEmpty()
                ? Optional.empty()
                : Optional.of(delivered.get(delivered.size() - 1).position());
    }

    /**
     * Whether this page could only continue at an artifact the reader heard nothing of: a whole window of
     * rows sharing the moment and source where the page began, none of them an entry. Such a position
     * must never reach a cursor (PROTOCOL 4.2); the reader judges the next window within the same request
     * instead (see {@link IncrementalReads}), continuing from this position, which stays on the relay.
     */
    boolean stalled() {
        return more
                && resumeAfter != null
                && !resumeAfter.d().equals(Position.LOWEST_ID)
                && delivered.stream().noneMatch(row -> row.position().equals(resumeAfter));
    }

    /**
     * Where to continue after {@code last}, naming no artifact the reader was not given. An unnamed
     * candidate is judged again by the next page, which begins before every row of its moment and
     * source, or after the page's last entry if that is later. Only when that would not move past
     * {@code start} (a whole window of rows sharing one microsecond and source, none of them an entry)
     * is it {@code last} itself, so that no row of that moment is skipped: such a page is {@link #stalled}
     * and is never answered as it is.
     */
    private static Position resumable(Position last, boolean named, Optional<Position> lastNamed, Position start) {
        if (named) {
            return last;
        }
        Position before = new Position(last.micros(), last.source(), Position.LOWEST_ID);
        Position resume = lastNamed.filter(entry -> entry.compareTo(before) > 0).orElse(before);
        return resume.compareTo(start) > 0 ? resume : last;
    }
}
