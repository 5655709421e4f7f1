package chat.buzz.relay.info;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** NIP-11 capabilities, each listed only while its gate says so. */
public final class Capabilities {
    private final Map<String, BooleanSupplier> gates = new LinkedHashMap<>();

    public synchronized void register(String capability, BooleanSupplier enabled) {
        gates.put(capability, enabled);
    }

    public synchronized List<String> active() {
        List<String> active = new ArrayList<>();
        gates.forEach((name, enabled) -> {
            if (enabled.getAsBoolean()) {
                active.add(name);
            }
        });
        return List.copyOf(active);
    }
}
