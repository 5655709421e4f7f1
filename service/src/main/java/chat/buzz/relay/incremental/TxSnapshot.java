package chat.buzz.relay.incremental;

import java.util.ArrayList;
import java.util.List;

/**
 * A PostgreSQL snapshot as {@code pg_current_snapshot()} gives it: transactions below {@code xmin} had
 * finished, those from {@code xmax} on had not started, and those in between had finished unless in
 * {@code inProgress}. All ids are 64-bit. A cursor keeps the snapshot of its session's first page, so
 * the next session can leave out rows that page could already see.
 */
record TxSnapshot(long xmin, long xmax, List<Long> inProgress) {
    /** Unknown: nothing counts as seen. */
    static final TxSnapshot NONE = new TxSnapshot(0, 0, List.of());
    /** A cursor carries at most this many in-progress ids; a busier snapshot keeps only its xmin. */
    static final int MAX_IN_PROGRESS = 32;

    TxSnapshot {
        inProgress = List.copyOf(inProgress);
    }

    /** Parses {@code xmin:xmax:xip,xip,...}, the text form of {@code pg_snapshot}, bounded for a cursor. */
    static TxSnapshot parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a pg_snapshot: " + text);
        }
        long xmin = Long.parseLong(parts[0]);
        List<Long> inProgress = new ArrayList<>();
        if (!parts[2].isEmpty()) {
            for (String xid : parts[2].split(",")) {
                inProgress.add(Long.parseLong(xid));
            }
        }
        if (inProgress.size() > MAX_IN_PROGRESS) {
            return new TxSnapshot(xmin, xmin, List.of());
        }
        return new TxSnapshot(xmin, Long.parseLong(parts[1]), inProgress);
    }

    /** What rows a snapshot with only this xmin could see: everything written below it. */
    static TxSnapshot below(long xmin) {
        return xmin == 0 ? NONE : new TxSnapshot(xmin, xmin, List.of());
    }

    boolean known() {
        return xmax > 0;
    }

    /**
     * Whether a row written by the 64-bit transaction id {@code xid} was visible in this snapshot, as
     * {@code pg_visible_in_snapshot} answers for a committed transaction; unknown sees nothing.
     */
    boolean sees(long xid) {
        return known() && (xid < xmin || (xid < xmax && !inProgress.contains(xid)));
    }

    /** The text form PostgreSQL casts to {@code pg_snapshot}; empty when unknown. */
    String text() {
        if (!known()) {
            return "";
        }
        StringBuilder text =
                new StringBuilder().append(xmin).append(':').append(xmax).append(':');
        for (int i = 0; i < inProgress.size(); i++) {
            text.append(i == 0 ? "" : ",").append(inProgress.get(i));
        }
        return text.toString();
    }
}
