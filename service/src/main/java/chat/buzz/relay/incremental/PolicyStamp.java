package chat.buzz.relay.incremental;

/**
 * The community's access-policy stamp (PROTOCOL 4.4): when it differs from the one a cursor holds,
 * the delta is answered as a bootstrap with reset.
 *
 * @param micros when the community's policy last changed (communities.artifact_policy_modified_at)
 * @param epoch  the database's epoch (migration 0110): changes when the database is restored from a
 *               backup, so a cursor from before the restore is reset even where the restored rows carry
 *               the same policy time; 0 for the database the epoch was introduced in
 */
public record PolicyStamp(long micros, long epoch) {
    /** The epoch of cursors issued before epochs existed, and of a database never restored. */
    public static final long FIRST_EPOCH = 0;

    public String wire() {
        String time = Long.toString(micros, 36);
        return epoch == FIRST_EPOCH ? time : time + "." + Long.toUnsignedString(epoch, 36);
    }
}
