package chat.buzz.relay.gate;

/** The feature gates of PROTOCOL 7. The environment variable gives each one's default. */
public enum Gate {
    INCREMENTAL("artifacts.incremental", "BUZZ_ARTIFACT_INCREMENTAL_ENABLED"),
    SYNC("artifacts.sync", "BUZZ_ARTIFACT_SYNC_ENABLED");

    private final String capability;
    private final String environmentVariable;

    Gate(String capability, String environmentVariable) {
        this.capability = capability;
        this.environmentVariable = environmentVariable;
    }

    /** The NIP-11 capability listed while the gate is on. */
    public String capability() {
        return capability;
    }

    public String environmentVariable() {
        return environmentVariable;
    }
}
