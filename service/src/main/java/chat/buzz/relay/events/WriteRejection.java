package chat.buzz.relay.events;

import chat.buzz.protocol.ErrorCodes;
import java.util.OptionalLong;

/**
 * Refuses a write. Thrown inside the write transaction, so nothing of the event is kept.
 * The message carries the contract's machine-readable prefix.
 */
public final class WriteRejection extends RuntimeException {
    private final int status;
    private final OptionalLong retryAfterSeconds;

    private WriteRejection(int status, String message, OptionalLong retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static WriteRejection invalid(String reason) {
        return new WriteRejection(400, ErrorCodes.INVALID_PREFIX + reason, OptionalLong.empty());
    }

    public static WriteRejection blocked(String reason) {
        return new WriteRejection(403, ErrorCodes.BLOCKED_PREFIX + reason, OptionalLong.empty());
    }

    public static WriteRejection conflict(String reason) {
        return new WriteRejection(409, ErrorCodes.CONFLICT_PREFIX + reason, OptionalLong.empty());
    }

    /** PROTOCOL 3: 429, and the caller may try again after {@code retryAfterSeconds}. */
    public static WriteRejection rateLimited(String reason, long retryAfterSeconds) {
        return new WriteRejection(
                429, ErrorCodes.RATE_LIMITED_PREFIX + reason, OptionalLong.of(Math.max(1, retryAfterSeconds)));
    }

    public int status() {
        return status;
    }

    public OptionalLong retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
