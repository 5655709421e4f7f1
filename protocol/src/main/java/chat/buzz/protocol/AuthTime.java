package chat.buzz.protocol;

import java.time.Clock;

/** Shared skew check for auth events; returns a reason, or null when created_at is acceptable. */
final class AuthTime {
    private AuthTime() {}

    static String skewProblem(long createdAt, Clock clock, long maxSkewSeconds) {
        long now = Math.floorDiv(clock.millis(), 1000L);
        if (createdAt < now - maxSkewSeconds) {
            return "auth event too old";
        }
        if (createdAt > now + maxSkewSeconds) {
            return "auth event from the future";
        }
        return null;
    }
}
