package chat.buzz.relay.changes;

/**
 * Which way a channel policy change can move the channel's artifacts for any reader: into readers'
 * D, out of it, or both. Told to live subscribers with the change, so that each asks the database only
 * for the way the change can go; a change it cannot tell (or a notice from a relay that does not say)
 * is {@link #BOTH}.
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

    /** An edit of a channel's visibility, unlisted flag or TTL (null: none), before and after. */
    public static PolicyChangeDirection ofEdit(
            boolean openBefore,
            boolean openAfter,
            boolean unlistedBefore,
            boolean unlistedAfter,
            Long ttlBefore,
            Long ttlAfter) {
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

    /** The direction a notice carries; a notice without one may go either way. */
    public static PolicyChangeDirection orBoth(PolicyChangeDirection carried) {
        return carried == null ? BOTH : carried;
    }
}
