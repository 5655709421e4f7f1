package chat.buzz.relay.admin;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** One operator: the name the audit trail shows, and the bearer token that proves it. */
public class OperatorConfig {
    /** Short tokens are guessable; the admin port guards schema rollbacks. */
    public static final int MIN_TOKEN_LENGTH = 16;

    @NotBlank
    private String name;

    @NotBlank
    @Size(min = MIN_TOKEN_LENGTH)
    private String token;

    public OperatorConfig() {}

    public OperatorConfig(String name, String token) {
        this.name = name;
        this.token = token;
    }

    @JsonProperty
    public String getName() {
        return name;
    }

    @JsonProperty
    public void setName(String name) {
        this.name = name;
    }

    @JsonProperty
    public String getToken() {
        return token;
    }

    @JsonProperty
    public void setToken(String token) {
        this.token = token;
    }
}
