package chat.buzz.relay.incremental;

/**
 * What a page's transaction knows about its own snapshot.
 *
 * @param nowMicros database time at the start of the transaction: at or before its snapshot
 * @param xmin      the oldest transaction (64-bit id) still running when the snapshot was taken: every
 *                  older one had finished, so rows it wrote are visible to this snapshot and to all later ones
 * @param xmax      the first transaction id not yet assigned then, to widen 32-bit row xids
 */
record ReadSnapshot(long nowMicros, long xmin, long xmax) {}
