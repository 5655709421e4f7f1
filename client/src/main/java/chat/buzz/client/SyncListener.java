package chat.buzz.client;

/** Told what a client does, for progress bars and logs. Every method has a do-nothing default. */
public interface SyncListener {
    /** A page was applied; {@code entriesSoFar} counts this session's entries. */
    default void page(int entries, long entriesSoFar, boolean more) {}

    /** Something worth a line in a log: resets, repairs, fallbacks, waits. */
    default void note(String message) {}

    /**
     * A follower is current and stays so {@code how}: after a subscription's initial heads, or when
     * it starts polling. Changes after this are reported to {@link #changed(Entry)}.
     */
    default void following(String how) {}

    /** An artifact changed while following; {@code entry.upsert()} false means it left. */
    default void changed(Entry entry) {}

    /** A channel's metadata changed while following: created, renamed, its settings, admins or members. */
    default void channelChanged(Channel channel) {}

    /** A channel left the key's view while following: deleted, made private, the key removed. */
    default void channelGone(String id) {}

    /** A follower lost the relay ({@code reason}) and tries again after {@code retryIn}. */
    default void disconnected(String reason, java.time.Duration retryIn) {
        note("following interrupted (" + reason + "); trying again in " + retryIn.toMillis() + " ms");
    }

    /**
     * A follower that was {@link #disconnected} is current again, {@code how} as in {@link #following};
     * {@code caughtUp} changes made while it was away were reported to {@link #changed} before this.
     */
    default void reconnected(String how, java.time.Duration away, int caughtUp) {
        following(how);
    }
}
