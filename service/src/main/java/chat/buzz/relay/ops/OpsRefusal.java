package chat.buzz.relay.ops;

import chat.buzz.relay.web.Refusal;
import java.util.List;
import java.util.OptionalInt;

/**
 * An operator action that cannot go ahead, answered as a 4xx with a machine-readable code and, where
 * useful, the list of what is missing. Never a 500: the operator can act on every one of these.
 * The admin API's bodies always carry {@code missing}, empty or not, which the console reads.
 */
public final class OpsRefusal extends Refusal {
    private final List<String> missing;

    public OpsRefusal(int status, String code, String message, List<String> missing) {
        super(status, code, message, OptionalInt.empty());
        this.missing = List.copyOf(missing);
    }

    public OpsRefusal(int status, String code, String message) {
        this(status, code, message, List.of());
    }

    public List<String> missing() {
        return missing;
    }

    public record Body(String error, String message, List<String> missing) {}

    @Override
    public Body body() {
        return new Body(code(), getMessage(), missing);
    }
}
