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
 * @param delivered   the rows this page answered with an entry (or would have, but for an earlier entry
 *                    of the same artifact in the page)
 * @param more        whether candidates remain after {@code resumeAfter}
 * @param resumeAfter the last candidate this page accounted for (null when nothing was examined)
 */
record PageWalk(List<Entry> entries, List<ChangeRow> delivered, boolean more, Position resumeAfter) {

    /** A page that found no more entries but stopped looking at {@code horizon} continues after it. */
    PageWalk orUpTo(Optional<Position> horizon) {
        return !more && horizon.isPresent() ? new PageWalk(entries, delivered, true, horizon.get()) : this;
    }

    static PageWalk of(Iterator<ChangeRow> rows, int limit, int window) {
        return of(rows, limit, window, Limits.INCREMENTAL_PAGE_BYTES);
    }

    /**
     * @param rows       judged candidates in change order
     * @param window     how many rows were asked for: a full window means more may follow it
     * @param eventBytes the event JSON a page may carry before it ends early
     */
    static PageWalk of(Iterator<ChangeRow> rows, int limit, int window, long eventBytes) {
        List<Entry> entries = new ArrayList<>();
        List<ChangeRow> delivered = new ArrayList<>();
        Set<UUID> named = new HashSet<>();
        Position last = null;
        int examined = 0;
        long bytes = 0;
        while (rows.hasNext()) {
            ChangeRow row = rows.next();
            Optional<Entry> entry = row.entry();
            boolean first = entry.isPresent() && !named.contains(row.d());
            long size = first ? entry.get().eventBytes() : 0;
            if (first && (entries.size() == limit || (!entries.isEmpty() && bytes + size > eventBytes))) {
                return new PageWalk(entries, delivered, true, last);
            }
            if (first) {
                named.add(row.d());
                entries.add(entry.get());
                bytes += size;
            }
            if (entry.isPresent()) {
                delivered.add(row);
            }
            last = row.position();
            examined++;
        }
        return new PageWalk(entries, delivered, examined >= window, last);
    }
}
