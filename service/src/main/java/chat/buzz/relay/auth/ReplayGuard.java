package chat.buzz.relay.auth;

import java.time.Duration;

/**
 * Remembers auth event ids for a window so a captured Authorization header cannot be replayed.
 * Shared by every relay instance of a deployment, so implementations keep state outside the JVM.
 */
public interface ReplayGuard {
    /**
     * created_at has whole seconds, and the relay instances and the store each read their own clock: keep
     * entries a little past the window so neither rounding nor a small clock difference opens a gap.
     */
    Duration MARGIN = Duration.ofSeconds(10);

    /**
     * Records the id until {@code createdAtSeconds} + {@code window} and a margin, so the entry outlives
     * every moment at which the auth event still passes the created_at check.
     *
     * @return true when the id was not recorded already; it is recorded now
     */
    boolean firstUse(String authEventId, long createdAtSeconds, Duration window);

    /** Drops entries whose window has passed; @return how many were dropped. */
    int purgeExpired();

    /**
     * Whether an entry could be recorded now, for readiness. The PostgreSQL guard's store is the database,
     * which readiness already looks at, so it says yes.
     */
    default boolean recordsNow() {
        return true;
    }
}
