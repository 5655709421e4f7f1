package chat.buzz.relay.admin;

import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;

/**
 * The operator behind the admin request this thread is serving. Dropwizard tasks receive only their
 * parameters, so the security filter leaves the operator (and the response, for 4xx answers) here.
 */
public final class Operator {
    private record Current(String name, HttpServletResponse response) {}

    private static final ThreadLocal<Current> CURRENT = new ThreadLocal<>();

    private Operator() {}

    static void enter(String name, HttpServletResponse response) {
        CURRENT.set(new Current(name, response));
    }

    static void leave() {
        CURRENT.remove();
    }

    /** The signed-in operator's name; the filter guarantees one on every admin request. */
    public static String name() {
        Current current = CURRENT.get();
        if (current == null) {
            throw new IllegalStateException("no operator: admin request outside the security filter");
        }
        return current.name();
    }

    /** A task's 503 while the database is unavailable: with the Retry-After every route sends then. */
    public static void respondUnavailable(int retryAfterSeconds) {
        Optional.ofNullable(CURRENT.get()).ifPresent(current -> {
            current.response().setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            current.response().setHeader("Retry-After", Integer.toString(retryAfterSeconds));
        });
    }

    /** Lets a task answer with a 4xx instead of the task servlet's blanket 500 for exceptions. */
    public static void respondWithStatus(int status) {
        Optional.ofNullable(CURRENT.get())
                .ifPresent(current -> current.response().setStatus(status));
    }
}
