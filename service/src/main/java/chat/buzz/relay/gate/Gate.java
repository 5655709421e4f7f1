package chat.buzz.relay.gate;

import chat.buzz.protocol.Nip11;

/** The feature gates of PROTOCOL 7. The environment variable gives each one's default. */
public enum Gate {
    INCREMENTAL(Nip11.CAPABILITY_INCREMENTAL, "BUZZ_ARTIFACT_INCREMENTAL_ENABLED", true),
    SYNC(Nip11.CAPABILITY_SYNC, "BUZZ_ARTIFACT_SYNC_ENABLED", true),
    /**
     * Channel policy changes delivered as entries instead of a reset (PROTOCOL 4.4). Not a capability of
     * its own (so its dotted name is no wire name): NIP-11 says which way is in force as
     * {@code policy_changes}.
     */
    SCOPED_POLICY("artifacts.scoped_policy", "BUZZ_ARTIFACT_SCOPED_POLICY_ENABLED", false);

    private final String capability;
    private final String environmentVariable;
    private final boolean advertised;

    Gate(String capability, String environmentVariable, boolean advertised) {
        this.capability = capability;
        this.environmentVariable = environmentVariable;
        this.advertised = advertised;
    }

    /** The gate's dotted name; the NIP-11 capability listed while the gate is on, when {@link #advertised}. */
    public String capability() {
        return capability;
    }

    /** Whether NIP-11 lists {@link #capability} among its capabilities while the gate is on (PROTOCOL 6). */
    public boolean advertised() {
        return advertised;
    }

    public String environmentVariable() {
        return environmentVariable;
    }
}
