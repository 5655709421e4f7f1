package chat.buzz.relay.gate;

/** Gates fixed at their configured defaults; operator overrides come with the admin console. */
public final class ConfiguredGates implements Gates {
    private final GatesConfig config;

    public ConfiguredGates(GatesConfig config) {
        this.config = config;
    }

    @Override
    public boolean isEnabled(Gate gate) {
        return config.defaultFor(gate);
    }
}
