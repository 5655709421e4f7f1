package chat.buzz.relay.ops;

import java.util.List;

/**
 * An operator action that cannot go ahead, answered as a 4xx with a machine-readable code and, where
 * useful, the list of what is missing. Never a 500: the operator can act on every one of these.
 */
public final class OpsRefusal extends RuntimeException {
    private final int status;
    private final String code;
    private final List<String> missing;

    public OpsRefusal(int status, String code, String message, List<String> missing) {
        super(message);
        this.status = status;
        this.code = code;
        this.missing = List.copyOf(missing);
    }

    public OpsRefusal(int status, String code, String message) {
        this(status, code, message, List.of());
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public List<String> missing() {
        return missing;
    }

    public record Body(String error, String message, List<String> missing) {}

    public Body body() {
        return new Body(code, getMessage(), missing);
    }
}
