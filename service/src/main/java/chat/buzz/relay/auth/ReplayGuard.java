package chat.buzz.relay.auth;

import java.time.Duration;

/**
 * Remembers auth event ids for a window so a captured Authorization header cannot be replayed.
 * Shared by every relay instance of a deployment, so implementations keep state outside the JVM.
 */
public interface ReplayGuard {
    /** @return true when the id was not used within the window; the id is then recorded */
    boolean firstUse(String authEventId, Duration window);

    /** Drops entries whose window has passed; @return how many were dropped. */
    int purgeExpired();
}
