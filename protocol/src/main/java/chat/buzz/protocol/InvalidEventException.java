package chat.buzz.protocol;

/** A well-formed event whose id or signature does not check out. */
public class InvalidEventException extends RuntimeException {
    public InvalidEventException(String message) {
        super(message);
    }
}
