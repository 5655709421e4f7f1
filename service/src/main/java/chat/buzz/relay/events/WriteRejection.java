package chat.buzz.relay.events;

/**
 * Refuses a write. Thrown inside the write transaction, so nothing of the event is kept.
 * The message carries the contract's machine-readable prefix.
 */
public final class WriteRejection extends RuntimeException {
    private final int status;

    private WriteRejection(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public static WriteRejection invalid(String reason) {
        return new WriteRejection(400, "invalid: " + reason);
    }

    public static WriteRejection blocked(String reason) {
        return new WriteRejection(403, "blocked: " + reason);
    }

    public static WriteRejection conflict(String reason) {
        return new WriteRejection(409, "conflict: " + reason);
    }

    public int status() {
        return status;
    }
}
