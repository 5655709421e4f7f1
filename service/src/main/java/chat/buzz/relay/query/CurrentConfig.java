package chat.buzz.relay.query;

import chat.buzz.relay.capacity.ReadCapacityConfig;

/** The {@code current:} section: capacity and statement budget of mode "current", apart from incremental's. */
public class CurrentConfig extends ReadCapacityConfig {
    public CurrentConfig() {
        super(8, 4, 2, 10, 5000);
    }
}
