package chat.buzz.relay.gate;

import java.util.List;

/** Turning a gate on was refused because its preconditions are not met and the operator did not force it. */
public final class FlagRefusedException extends RuntimeException {
    private final Gate gate;
    private final List<String> unmet;

    public FlagRefusedException(Gate gate, List<String> unmet) {
        super("preconditions for " + gate.name().toLowerCase() + " are not met");
        this.gate = gate;
        this.unmet = List.copyOf(unmet);
    }

    public Gate gate() {
        return gate;
    }

    public List<String> unmet() {
        return unmet;
    }
}
