package chat.buzz.relay.incremental;

/**
 * What a page's transaction knows about its own snapshot.
 *
 * @param nowMicros      database time at the start of the transaction, at or before its snapshot; on a
 *                       standby the time of the last transaction it replayed, if earlier (its data is
 *                       that old, whatever its clock says)
 * @param snapshot       the snapshot itself, as a later session will need it
 * @param policy         the community's policy stamp as this snapshot sees it
 * @param onStandby      whether the page runs on a hot standby
 * @param replayPosition the WAL position (an LSN as a number) the node had reached once the snapshot was
 *                       taken: everything the page can see lies before it
 */
record ReadSnapshot(long nowMicros, TxSnapshot snapshot, PolicyStamp policy, boolean onStandby, long replayPosition) {

    /** A snapshot on the primary whose replay position nobody asks for. */
    ReadSnapshot(long nowMicros, TxSnapshot snapshot, PolicyStamp policy) {
        this(nowMicros, snapshot, policy, false, 0);
    }
}
