package chat.buzz.client;

import java.util.ArrayList;
import java.util.List;

/**
 * Applies changes from WebSocket sync in the order they arrived, in batches. A catch-up read (the
 * self-check's delta session and known-ID reads) answers with state at least as new as every change
 * that arrived before it began, so such changes still waiting here are dropped instead of applied on
 * top of it: an upsert would put back an older head, a removal would drop an artifact the read
 * brought back, and an upsert after a removal would bring back what the read saw leave. Changes that
 * arrive while the read runs are applied; the store refuses heads older than the one it holds.
 */
public final class LiveChanges {
    private final Store store;
    private final List<Entry> batch = new ArrayList<>();
    private long coveredThrough = -1;
    private int dropped;

    public LiveChanges(Store store) {
        this.store = store;
    }

    /**
     * Queues a change for the next {@link #flush()}.
     *
     * @param arrival the connection's arrival number of the message, increasing
     * @return false when a catch-up read already covered the change and it was dropped
     */
    public boolean offer(long arrival, Entry entry) {
        if (arrival <= coveredThrough) {
            dropped++;
            return false;
        }
        batch.add(entry);
        return true;
    }

    /**
     * A catch-up read began after the message numbered {@code arrival} arrived: that message and every
     * earlier one are covered by it. Call before the read starts, applying the changes after it ends.
     */
    public void caughtUpThrough(long arrival) {
        batch.clear();
        coveredThrough = Math.max(coveredThrough, arrival);
    }

    public int pending() {
        return batch.size();
    }

    /** Changes dropped because a catch-up read covered them. */
    public int dropped() {
        return dropped;
    }

    public void flush() {
        if (!batch.isEmpty()) {
            store.applyLive(List.copyOf(batch));
            batch.clear();
        }
    }
}
