package chat.buzz.protocol;

/** The input is not a well-formed event; the message is safe to show to the sender. */
public class MalformedEventException extends RuntimeException {
    public MalformedEventException(String message) {
        super(message);
    }
}
