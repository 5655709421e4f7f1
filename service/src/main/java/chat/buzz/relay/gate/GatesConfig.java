package chat.buzz.relay.gate;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Gate defaults, normally from BUZZ_ARTIFACT_INCREMENTAL_ENABLED, BUZZ_ARTIFACT_SYNC_ENABLED and
 * BUZZ_ARTIFACT_SCOPED_POLICY_ENABLED.
 */
public class GatesConfig {
    private boolean incremental;
    private boolean sync;
    private boolean scopedPolicy;

    @JsonProperty
    public boolean isIncremental() {
        return incremental;
    }

    @JsonProperty
    public void setIncremental(boolean incremental) {
        this.incremental = incremental;
    }

    @JsonProperty
    public boolean isSync() {
        return sync;
    }

    @JsonProperty
    public void setSync(boolean sync) {
        this.sync = sync;
    }

    @JsonProperty
    public boolean isScopedPolicy() {
        return scopedPolicy;
    }

    @JsonProperty
    public void setScopedPolicy(boolean scopedPolicy) {
        this.scopedPolicy = scopedPolicy;
    }

    public boolean defaultFor(Gate gate) {
        return switch (gate) {
            case INCREMENTAL -> incremental;
            case SYNC -> sync;
            case SCOPED_POLICY -> scopedPolicy;
        };
    }
}
