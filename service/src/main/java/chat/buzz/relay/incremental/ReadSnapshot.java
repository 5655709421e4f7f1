package chat.buzz.relay.incremental;

/**
 * What a page's transaction knows about its own snapshot.
 *
 * @param nowMicros database time at the start of the transaction: at or before its snapshot
 * @param snapshot  the snapshot itself, as a later session will need it
 * @param policy    the community's policy stamp as this snapshot sees it
 */
record ReadSnapshot(long nowMicros, TxSnapshot snapshot, PolicyStamp policy) {}
