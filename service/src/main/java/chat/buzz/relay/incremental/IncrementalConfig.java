package chat.buzz.relay.incremental;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/** The {@code incremental:} section: overlap, capacity and statement budget of incremental reads. */
public class IncrementalConfig {
    /** PROTOCOL 4.2: each session re-reads this far behind its saved position. */
    @Min(0) @Max(86_400)
    private int overlapSeconds = 120;

    @Min(1) @Max(1024)
    private int maxConcurrentReads = 4;

    /** Leaves room for others: one caller holding every permit would starve the rest. */
    @Min(1) @Max(1024)
    private int maxConcurrentReadsPerCaller = 2;

    @Min(0) @Max(60_000)
    private long maxWaitMillis = 0;

    @Min(1) @Max(3600)
    private int retryAfterMinSeconds = 5;

    @Min(1) @Max(3600)
    private int retryAfterMaxSeconds = 30;

    @Min(1) @Max(600_000)
    private long statementBudgetMillis = 2000;

    /** Signs cursors; empty derives a secret from the relay key, which every instance shares. */
    private String cursorSecret = "";

    @AssertTrue(message = "retryAfterMinSeconds must not exceed retryAfterMaxSeconds")
    public boolean isRetryAfterRangeValid() {
        return retryAfterMinSeconds <= retryAfterMaxSeconds;
    }

    @AssertTrue(message = "cursorSecret must be empty or at least 16 bytes")
    public boolean isCursorSecretValid() {
        return cursorSecret.isEmpty() || cursorSecret.getBytes(java.nio.charset.StandardCharsets.UTF_8).length >= 16;
    }

    @JsonProperty public int getOverlapSeconds() { return overlapSeconds; }
    @JsonProperty public void setOverlapSeconds(int overlapSeconds) { this.overlapSeconds = overlapSeconds; }
    @JsonProperty public int getMaxConcurrentReads() { return maxConcurrentReads; }
    @JsonProperty public void setMaxConcurrentReads(int maxConcurrentReads) { this.maxConcurrentReads = maxConcurrentReads; }
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
    @JsonProperty public String getCursorSecret() { return cursorSecret; }
    @JsonProperty public void setCursorSecret(String cursorSecret) { this.cursorSecret = cursorSecret == null ? "" : cursorSecret; }
}
