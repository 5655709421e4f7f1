package chat.buzz.relay.database;

/**
 * Where a read may run, as far as what it must reflect goes. A standby serves it only while its replay
 * lag is under the bound and it has replayed at least {@link #atLeast}; otherwise the primary does.
 *
 * @param atLeast         the WAL position (an LSN as a number) the node must have replayed; 0 for any
 * @param primaryFence    whether everything the primary had committed when the read arrived must be in it
 *                        (the caller then reads its own confirmed writes wherever the read runs)
 * @param primaryOnly     whether the read runs on the primary whatever standbys there are
 */
public record ReadPlacement(long atLeast, boolean primaryFence, boolean primaryOnly) {
    /** Any node within the lag bound: what a client could have been told a moment ago. */
    public static final ReadPlacement ANY = new ReadPlacement(0, false, false);
    /** Everything committed before the read arrived, on a standby that has replayed it or on the primary. */
    public static final ReadPlacement READ_YOUR_WRITES = new ReadPlacement(0, true, false);
    /** The primary alone. */
    public static final ReadPlacement PRIMARY = new ReadPlacement(0, false, true);

    /** A node that has replayed at least {@code lsn}: no older than what an earlier page of this client saw. */
    public static ReadPlacement atLeast(long lsn) {
        return new ReadPlacement(lsn, false, false);
    }
}
