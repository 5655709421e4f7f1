package chat.buzz.relay.gate;

import java.util.List;

/** What must hold before a gate may be turned on; each unmet item is a sentence an operator can act on. */
public interface GatePreconditions {
    GatePreconditions NONE = gate -> List.of();

    List<String> unmet(Gate gate);
}
