package chat.buzz.relay.capacity;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * The capacity settings every kind of read shares: its bulkhead, a caller's share of it, the range of
 * the jittered Retry-After, and the statement budget. Each kind's section chooses its own defaults.
 */
public abstract class ReadCapacityConfig {
    @Min(1)
    @Max(1024)
    private int maxConcurrentReads;

    /** Leaves room for others: one caller holding every permit would starve the rest. */
    @Min(1)
    @Max(1024)
    private int maxConcurrentReadsPerCaller;

    @Min(0)
    @Max(60_000)
    private long maxWaitMillis = 0;

    @Min(1)
    @Max(3600)
    private int retryAfterMinSeconds;

    @Min(1)
    @Max(3600)
    private int retryAfterMaxSeconds;

    @Min(1)
    @Max(600_000)
    private long statementBudgetMillis;

    protected ReadCapacityConfig(
            int maxConcurrentReads,
            int perCaller,
            int retryAfterMinSeconds,
            int retryAfterMaxSeconds,
            long statementBudgetMillis) {
        this.maxConcurrentReads = maxConcurrentReads;
        this.maxConcurrentReadsPerCaller = perCaller;
        this.retryAfterMinSeconds = retryAfterMinSeconds;
        this.retryAfterMaxSeconds = retryAfterMaxSeconds;
        this.statementBudgetMillis = statementBudgetMillis;
    }

    @AssertTrue(message = "retryAfterMinSeconds must not exceed retryAfterMaxSeconds")
    public boolean isRetryAfterRangeValid() {
        return retryAfterMinSeconds <= retryAfterMaxSeconds;
    }

    /**
     * A bulkhead sized by these settings, counting its refusals (caller over its share, or no permit free in
     * time) as {@code buzz.<name>.refused}.
     */
    public ReadBulkhead bulkhead(String name, MetricRegistry metrics) {
        return new ReadBulkhead(
                name,
                maxConcurrentReads,
                maxWaitMillis,
                maxConcurrentReadsPerCaller,
                retryAfterMinSeconds,
                retryAfterMaxSeconds,
                metrics.counter(MetricRegistry.name("buzz", name, "refused")));
    }

    @JsonProperty
    public int getMaxConcurrentReads() {
        return maxConcurrentReads;
    }

    @JsonProperty
    public void setMaxConcurrentReads(int reads) {
        this.maxConcurrentReads = reads;
    }

    @JsonProperty
    public int getMaxConcurrentReadsPerCaller() {
        return maxConcurrentReadsPerCaller;
    }

    @JsonProperty
    public void setMaxConcurrentReadsPerCaller(int reads) {
        this.maxConcurrentReadsPerCaller = reads;
    }

    @JsonProperty
    public long getMaxWaitMillis() {
        return maxWaitMillis;
    }

    @JsonProperty
    public void setMaxWaitMillis(long maxWaitMillis) {
        this.maxWaitMillis = maxWaitMillis;
    }

    @JsonProperty
    public int getRetryAfterMinSeconds() {
        return retryAfterMinSeconds;
    }

    @JsonProperty
    public void setRetryAfterMinSeconds(int seconds) {
        this.retryAfterMinSeconds = seconds;
    }

    @JsonProperty
    public int getRetryAfterMaxSeconds() {
        return retryAfterMaxSeconds;
    }

    @JsonProperty
    public void setRetryAfterMaxSeconds(int seconds) {
        this.retryAfterMaxSeconds = seconds;
    }

    @JsonProperty
    public long getStatementBudgetMillis() {
        return statementBudgetMillis;
    }

    @JsonProperty
    public void setStatementBudgetMillis(long millis) {
        this.statementBudgetMillis = millis;
    }
}
