package chat.buzz.relay.web;

/**
 * A store a request needs besides the relay's database (the replay guard's Redis) cannot serve it now. It
 * is answered as a database outage is, in the route's own 503 shape with a Retry-After, so clients handle
 * both alike; whoever throws it has already logged the outage (once per outage, not per request), so the
 * exception carries no stack trace.
 */
public final class DependencyUnavailable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int retryAfterSeconds;

    public DependencyUnavailable(String what, int retryAfterSeconds) {
        super(what, null, false, false);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
