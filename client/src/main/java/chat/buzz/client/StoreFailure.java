package chat.buzz.client;

/** The local store could not be read or written. */
public final class StoreFailure extends RuntimeException {
    public StoreFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
