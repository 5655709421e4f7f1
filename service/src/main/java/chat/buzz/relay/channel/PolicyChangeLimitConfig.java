package chat.buzz.relay.channel;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/**
 * The {@code policyChangeLimit:} section: how many writes that advance a community's policy stamp
 * (PROTOCOL 4.4) one pubkey, and the whole community, may make within a sliding window. Every
 * instance counts the same database rows, so these are limits of the deployment, not per instance.
 */
public class PolicyChangeLimitConfig {
    @Min(1)
    private int perPubkey = 10;

    @Min(1)
    private int perCommunity = 30;

    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    @MaxDuration(value = 1, unit = TimeUnit.DAYS)
    private Duration window = Duration.minutes(1);

    @JsonProperty
    public int getPerPubkey() {
        return perPubkey;
    }

    @JsonProperty
    public void setPerPubkey(int perPubkey) {
        this.perPubkey = perPubkey;
    }

    @JsonProperty
    public int getPerCommunity() {
        return perCommunity;
    }

    @JsonProperty
    public void setPerCommunity(int perCommunity) {
        this.perCommunity = perCommunity;
    }

    @JsonProperty
    public Duration getWindow() {
        return window;
    }

    @JsonProperty
    public void setWindow(Duration window) {
        this.window = window;
    }
}
