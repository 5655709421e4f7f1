package chat.buzz.relay.auth;

import java.time.Duration;

/**
 * Remembers auth event ids for a window so a captured Authorization header cannot be replayed.
 * Shared by every relay instance of a deployment, so implementations keep state outside the JVM.
 */
public interface ReplayGuard {
    /**
     * Records the id until {@code createdAtSeconds} + {@code window} and a margin, so the entry outlives
     * every moment at which the auth event still passes the created_at check.
     *
     * @return true when the id was not recorded already; it is recorded now
     */
    boolean firstUse(String authEventId, long createdAtSeconds, Duration window);

    /** Drops entries whose window has passed; @return how many were dropped. */
    int purgeExpired();
}
