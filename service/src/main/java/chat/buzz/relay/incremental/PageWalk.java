package chat.buzz.relay.incremental;

import chat.buzz.relay.incremental.Cursor.Position;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * One page cut from judged candidates in change order: at most {@code limit} entries, each artifact
 * named at most once (PROTOCOL 4.2), and the position the next page continues after.
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

    /**
     * @param rows   judged candidates in change order
     * @param window how many rows were asked for: a full window means more may follow it
     */
    static PageWalk of(List<ChangeRow> rows, int limit, int window) {
        List<Entry> entries = new ArrayList<>();
        List<ChangeRow> delivered = new ArrayList<>();
        Set<UUID> named = new HashSet<>();
        Position last = null;
        for (ChangeRow row : rows) {
            Optional<Entry> entry = row.entry();
            boolean first = entry.isPresent() && !named.contains(row.d());
            if (first && entries.size() == limit) {
                return new PageWalk(entries, delivered, true, last);
            }
            if (first) {
                named.add(row.d());
                entries.add(entry.get());
            }
            if (entry.isPresent()) {
                delivered.add(row);
            }
            last = row.position();
        }
        return new PageWalk(entries, delivered, rows.size() >= window, last);
    }
}
