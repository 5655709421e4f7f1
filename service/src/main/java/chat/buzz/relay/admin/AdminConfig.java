package chat.buzz.relay.admin;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;

/** The admin port: who may use it, and how the operations features behave. */
public class AdminConfig {
    @Valid
    @NotNull
    private List<OperatorConfig> operators = List.of();

    /**
     * A read-only token that may scrape {@code /metrics/prometheus} and nothing else, for a Prometheus
     * server that should not hold an operator's token. Optional; BUZZ_ADMIN_METRICS_TOKEN also sets it.
     */
    @Size(min = OperatorConfig.MIN_TOKEN_LENGTH)
    private String metricsToken;

    /** Local mode only: without any configured token, make one up at start and log it once. */
    private boolean generateTokenWhenMissing;

    /** How often each instance rereads flag overrides; an operator's flip reaches every instance within this. */
    @NotNull
    private Duration flagRefresh = Duration.seconds(1);

    /** How often counted resets, capacity rejections and timeouts are written to the database. */
    @NotNull
    private Duration statisticsFlush = Duration.seconds(2);

    /** How often each instance writes its row in relay_instances; three missed beats mark it stale. */
    private Duration heartbeat = Duration.seconds(5);

    /**
     * How long a gate flip (and rollback-incremental) waits for every instance to confirm the new value.
     * Unset: long enough for five heartbeats and four flag rereads. A frozen instance never confirms.
     */
    private Duration gateConfirmationBound;

    /** An instance silent this long is removed from the fleet view. */
    private Duration forgetInstanceAfter = Duration.hours(1);

    /** Resets served in one minute (all instances together) from which a minute counts as a burst. */
    @Min(1)
    private long burstThreshold = 50;

    @JsonProperty
    public List<OperatorConfig> getOperators() {
        return operators;
    }

    @JsonProperty
    public void setOperators(List<OperatorConfig> operators) {
        this.operators = List.copyOf(operators);
    }

    @JsonProperty
    public String getMetricsToken() {
        return metricsToken;
    }

    @JsonProperty
    public void setMetricsToken(String metricsToken) {
        this.metricsToken = metricsToken;
    }

    @JsonProperty
    public boolean isGenerateTokenWhenMissing() {
        return generateTokenWhenMissing;
    }

    @JsonProperty
    public void setGenerateTokenWhenMissing(boolean value) {
        this.generateTokenWhenMissing = value;
    }

    @JsonProperty
    public Duration getFlagRefresh() {
        return flagRefresh;
    }

    @JsonProperty
    public void setFlagRefresh(Duration flagRefresh) {
        this.flagRefresh = flagRefresh;
    }

    @JsonProperty
    public Duration getHeartbeat() {
        return heartbeat;
    }

    @JsonProperty
    public void setHeartbeat(Duration heartbeat) {
        this.heartbeat = heartbeat;
    }

    @JsonProperty
    public Duration getGateConfirmationBound() {
        return gateConfirmationBound;
    }

    @JsonProperty
    public void setGateConfirmationBound(Duration bound) {
        this.gateConfirmationBound = bound;
    }

    public java.time.Duration confirmationBound() {
        return gateConfirmationBound != null
                ? gateConfirmationBound.toJavaDuration()
                : java.time.Duration.ofMillis(
                        Math.max(5 * heartbeat.toMilliseconds(), 4 * flagRefresh.toMilliseconds()));
    }

    @JsonProperty
    public Duration getForgetInstanceAfter() {
        return forgetInstanceAfter;
    }

    @JsonProperty
    public void setForgetInstanceAfter(Duration forgetInstanceAfter) {
        this.forgetInstanceAfter = forgetInstanceAfter;
    }

    @JsonProperty
    public Duration getStatisticsFlush() {
        return statisticsFlush;
    }

    @JsonProperty
    public void setStatisticsFlush(Duration statisticsFlush) {
        this.statisticsFlush = statisticsFlush;
    }

    @JsonProperty
    public long getBurstThreshold() {
        return burstThreshold;
    }

    @JsonProperty
    public void setBurstThreshold(long burstThreshold) {
        this.burstThreshold = burstThreshold;
    }
}
