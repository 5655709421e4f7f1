package chat.buzz.relay.changes;

/**
 * Which way a channel policy change can move the channel's artifacts for any reader: into readers'
 * D, out of it, or both. Read once per change from its history row by each instance's fan-out, so
 * that each live subscription asks the database only for the way the change can go; a change it
 * cannot tell is {@link #BOTH}.
 */
public enum PolicyChangeDirection {
    /** Nothing can leave any reader's D: made open, listed, or its TTL cleared. */
    WIDENS,
    /** Nothing can enter any reader's D: made private, unlisted, given a TTL, or deleted. */
    NARROWS,
    BOTH;

    public boolean mayAdd() {
        return this != NARROWS;
    }

    public boolean mayRemove() {
        return this != WIDENS;
    }

    /**
     * A recorded change (a row of channel_settings_history): visibility open or not, the unlisted flag,
     * the TTL (null: none) and whether the channel is deleted, before and after.
     */
    public static PolicyChangeDirection of(
            boolean openBefore,
            boolean openAfter,
            boolean unlistedBefore,
            boolean unlistedAfter,
            Long ttlBefore,
            Long ttlAfter,
            boolean deletedBefore,
            boolean deletedAfter) {
        if (deletedBefore != deletedAfter) {
            return deletedAfter ? NARROWS : BOTH;
        }
        boolean widens = (!openBefore && openAfter)
                || (unlistedBefore && !unlistedAfter)
                || (ttlBefore != null && ttlAfter == null);
        boolean narrows = (openBefore && !openAfter)
                || (!unlistedBefore && unlistedAfter)
                || (ttlBefore == null && ttlAfter != null);
        if (widens == narrows) {
            return BOTH;
        }
        return widens ? WIDENS : NARROWS;
    }

    /** The direction a change was told; a change not told may go either way. */
    public static PolicyChangeDirection orBoth(PolicyChangeDirection carried) {
        return carried == null ? BOTH : carried;
    }
}
