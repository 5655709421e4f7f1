package chat.buzz.relay.sync;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.UUID;

/**
 * The artifacts one subscription has sent a removal for and no upsert since: what its reader was told
 * left, the judge's "told left" as a WebSocket subscription knows it (PROTOCOL 5: a removal goes only to
 * a subscriber that could hold the artifact). A second removal of such an artifact would only tell a
 * former member that a channel it can no longer read is busy, so it is dropped. Owned by the
 * subscription's serial run.
 *
 * <p>Bounded: past {@link #REMEMBERED} artifacts the longest-told is forgotten, and a later change of it
 * gives one more removal. A forgotten artifact costs one repeat, never a missed removal.
 */
final class ToldLeft {
    static final int REMEMBERED = 16_384;

    private final LinkedHashSet<UUID> told = new LinkedHashSet<>();

    /** Whether the frame tells the reader something new; remembers removals, forgets on an upsert. */
    boolean admit(BulkStream.Framed framed) {
        if (!framed.removal()) {
            told.remove(framed.d());
            return true;
        }
        if (!told.add(framed.d())) {
            return false;
        }
        if (told.size() > REMEMBERED) {
            Iterator<UUID> oldest = told.iterator();
            oldest.next();
            oldest.remove();
        }
        return true;
    }
}
