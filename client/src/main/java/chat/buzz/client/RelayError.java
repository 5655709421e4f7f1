package chat.buzz.client;

import chat.buzz.protocol.ErrorCodes;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A relay answer that is not a success, or a failure to reach the relay at all. {@link #code()} is the
 * relay's error code ({@code incremental_capacity}, {@code NIP-98: ...}, {@code conflict: ...}) when
 * it sent one; {@link #status()} is 0 when no HTTP answer arrived.
 */
public class RelayError extends RuntimeException {
    /** The code of a failure to reach a relay that has not answered this client yet. */
    public static final String NEVER_REACHED = "never_reached";

    private static final Pattern UUID_IN_TEXT =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private static final Pattern URL_IN_TEXT = Pattern.compile("[a-z]+://\\S+");

    private final int status;
    private final String code;
    private final Duration retryAfter;
    private final String channel;

    public RelayError(int status, String code, String message, Duration retryAfter) {
        this(status, code, message, retryAfter, null);
    }

    /** @param channel the body's {@code channel} field (a TTL refusal's channel), or null */
    public RelayError(int status, String code, String message, Duration retryAfter, String channel) {
        super(message);
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
        this.channel = channel;
    }

    public static RelayError unreachable(String what, Throwable cause) {
        RelayError error = new RelayError(0, "unreachable", what + ": " + explain(what, cause), null);
        error.initCause(cause);
        return error;
    }

    /** Not reached on the first try: not retried, since a relay that was never there will not appear by waiting. */
    public static RelayError neverReached(String what, Throwable cause) {
        RelayError error = new RelayError(0, NEVER_REACHED, what + ": " + explain(what, cause), null);
        error.initCause(cause);
        return error;
    }

    /**
     * The first message along the cause chain; a refused connection often has none but its type, and a
     * host name that does not resolve reaches us as a ConnectException wrapping an unresolved address.
     */
    private static String explain(String what, Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof java.nio.channels.UnresolvedAddressException
                    || t instanceof java.net.UnknownHostException) {
                return "cannot resolve " + hostIn(what).orElse("the relay's host name");
            }
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof java.net.ConnectException
                    && (t.getMessage() == null || t.getMessage().isBlank())) {
                return "connection refused";
            }
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return cause.getClass()
                .getSimpleName()
                .replaceAll("([a-z])([A-Z])", "$1 $2")
                .toLowerCase();
    }

    /** The host of the first URL in {@code what} ("GET / to http://relay.example:8080"). */
    private static Optional<String> hostIn(String what) {
        Matcher url = URL_IN_TEXT.matcher(what);
        if (!url.find()) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(java.net.URI.create(url.group()).getHost());
        } catch (IllegalArgumentException notAUrl) {
            return Optional.empty();
        }
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /**
     * The channel the error is about: its body's {@code channel} field, or, from a relay that sends no
     * such field yet, the first channel id its message names (PROTOCOL 4.5 promises the message does).
     */
    public Optional<String> channel() {
        if (channel != null) {
            return Optional.of(channel);
        }
        Matcher named = UUID_IN_TEXT.matcher(getMessage() == null ? "" : getMessage());
        return named.find() ? Optional.of(named.group()) : Optional.empty();
    }

    /** Whether the same request may succeed later: capacity, timeouts, rate limits, server trouble, no answer. */
    public boolean retryable() {
        return (status == 0 && !NEVER_REACHED.equals(code))
                || status == 429
                || (status >= 500 && !ErrorCodes.INCREMENTAL_UNAVAILABLE.equals(code));
    }
}
