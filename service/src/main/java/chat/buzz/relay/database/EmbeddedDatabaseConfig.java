package chat.buzz.relay.database;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

/** Local mode: the relay starts its own PostgreSQL whose files persist in {@link #dataDirectory}. */
public class EmbeddedDatabaseConfig {
    private boolean enabled;

    @NotBlank
    private String dataDirectory = "./data/postgres";

    /** 0 picks a free port on every start. */
    @Min(0)
    @Max(65535)
    private int port;

    @JsonProperty
    public boolean isEnabled() {
        return enabled;
    }

    @JsonProperty
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    @JsonProperty
    public String getDataDirectory() {
        return dataDirectory;
    }

    @JsonProperty
    public void setDataDirectory(String dataDirectory) {
        this.dataDirectory = dataDirectory;
    }

    @JsonProperty
    public int getPort() {
        return port;
    }

    @JsonProperty
    public void setPort(int port) {
        this.port = port;
    }
}
