package chat.buzz.relay.identity;

import chat.buzz.protocol.Limits;
import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.List;

public class RelayConfig {
    @NotBlank
    private String name = "Buzz relay";

    private String description = "Buzz team chat relay: channels and artifacts";

    /** The scheme clients see; a relay behind a TLS terminator says https (NIP-98 `u` tag). */
    @Pattern(regexp = "https?")
    private String publicScheme = "http";

    /** Addresses whose X-Forwarded-* headers are believed (the reverse proxies); none by default. */
    @NotNull
    private List<String> trustedProxies = List.of();

    /** Hex secret key; empty means use (or create) {@link #keyFile}. Never logged. */
    private String secretKey = "";

    /** Where local mode keeps a generated key; empty disables generation. */
    private String keyFile = "";

    @Min(1024)
    @Max(16 * 1024 * 1024)
    private int maxBodyBytes = 512 * 1024;

    /**
     * PROTOCOL 2.1 step 6. A header first used at the earliest moment its created_at allows stays valid for
     * twice the clock skew; a shorter window would promise a guard that ends while the header still works.
     */
    @Min(
            value = 2 * Limits.HTTP_AUTH_SKEW_SECONDS,
            message = "must be at least twice the NIP-98 clock skew of " + Limits.HTTP_AUTH_SKEW_SECONDS + " s")
    @Max(3600)
    private int replayWindowSeconds = 120;

    @JsonProperty
    public String getName() {
        return name;
    }

    @JsonProperty
    public void setName(String name) {
        this.name = name;
    }

    @JsonProperty
    public String getDescription() {
        return description;
    }

    @JsonProperty
    public void setDescription(String description) {
        this.description = description;
    }

    @JsonProperty
    public String getPublicScheme() {
        return publicScheme;
    }

    @JsonProperty
    public void setPublicScheme(String publicScheme) {
        this.publicScheme = publicScheme;
    }

    @JsonProperty
    public List<String> getTrustedProxies() {
        return trustedProxies;
    }

    @JsonProperty
    public void setTrustedProxies(List<String> trustedProxies) {
        this.trustedProxies = trustedProxies == null
                ? List.of()
                : trustedProxies.stream().filter(java.util.Objects::nonNull).toList();
    }

    @JsonProperty
    public String getSecretKey() {
        return secretKey;
    }

    @JsonProperty
    public void setSecretKey(String secretKey) {
        this.secretKey = secretKey == null ? "" : secretKey.trim();
    }

    @JsonProperty
    public String getKeyFile() {
        return keyFile;
    }

    @JsonProperty
    public void setKeyFile(String keyFile) {
        this.keyFile = keyFile == null ? "" : keyFile;
    }

    @JsonProperty
    public int getMaxBodyBytes() {
        return maxBodyBytes;
    }

    @JsonProperty
    public void setMaxBodyBytes(int maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    @JsonProperty
    public int getReplayWindowSeconds() {
        return replayWindowSeconds;
    }

    @JsonProperty
    public void setReplayWindowSeconds(int replayWindowSeconds) {
        this.replayWindowSeconds = replayWindowSeconds;
    }
}
