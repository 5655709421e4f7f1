package chat.buzz.relay.gate;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Gate defaults, normally from BUZZ_ARTIFACT_INCREMENTAL_ENABLED and BUZZ_ARTIFACT_SYNC_ENABLED. */
public class GatesConfig {
    private boolean incremental;
    private boolean sync;

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

    public boolean defaultFor(Gate gate) {
        return switch (gate) {
            case INCREMENTAL -> incremental;
            case SYNC -> sync;
        };
    }
}
