package chat.buzz.relay.query;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/** The {@code current:} section: capacity and statement budget of mode "current", apart from incremental's. */
public class CurrentConfig {
    @Min(1) @Max(1024)
    private int maxConcurrentReads = 8;

    /** Leaves room for others: one caller holding every permit would starve the rest. */
    @Min(1) @Max(1024)
    private int maxConcurrentReadsPerCaller = 4;

    @Min(0) @Max(60_000)
    private long maxWaitMillis = 0;

    @Min(1) @Max(3600)
    private int retryAfterMinSeconds = 2;

    @Min(1) @Max(3600)
    private int retryAfterMaxSeconds = 10;

    @Min(1) @Max(600_000)
    private long statementBudgetMillis = 5000;

    @AssertTrue(message = "retryAfterMinSeconds must not exceed retryAfterMaxSeconds")
    public boolean isRetryAfterRangeValid() {
        return retryAfterMinSeconds <= retryAfterMaxSeconds;
    }

    @JsonProperty public int getMaxConcurrentReads() { return maxConcurrentReads; }
    @JsonProperty public void setMaxConcurrentReads(int reads) { this.maxConcurrentReads = reads; }
    @JsonProperty public int getMaxConcurrentReadsPerCaller() { return maxConcurrentReadsPerCaller; }
    @JsonProperty public void setMaxConcurrentReadsPerCaller(int reads) { this.maxConcurrentReadsPerCaller = reads; }
    @JsonProperty public long getMaxWaitMillis() { return maxWaitMillis; }
    @JsonProperty public void setMaxWaitMillis(long maxWaitMillis) { this.maxWaitMillis = maxWaitMillis; }
    @JsonProperty public int getRetryAfterMinSeconds() { return retryAfterMinSeconds; }
    @JsonProperty public void setRetryAfterMinSeconds(int seconds) { this.retryAfterMinSeconds = seconds; }
    @JsonProperty public int getRetryAfterMaxSeconds() { return retryAfterMaxSeconds; }
    @JsonProperty public void setRetryAfterMaxSeconds(int seconds) { this.retryAfterMaxSeconds = seconds; }
    @JsonProperty public long getStatementBudgetMillis() { return statementBudgetMillis; }
    @JsonProperty public void setStatementBudgetMillis(long millis) { this.statementBudgetMillis = millis; }
}
