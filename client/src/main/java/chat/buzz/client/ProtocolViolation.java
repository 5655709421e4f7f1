package chat.buzz.client;

/** The relay answered something PROTOCOL.md does not allow; retrying the same way would not help. */
public final class ProtocolViolation extends RuntimeException {
    public ProtocolViolation(String message) {
        super(message);
    }
}
