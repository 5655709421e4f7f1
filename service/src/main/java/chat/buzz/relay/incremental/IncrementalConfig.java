package chat.buzz.relay.incremental;

import chat.buzz.relay.access.Overlap;
import chat.buzz.relay.capacity.ReadCapacityConfig;
import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.nio.charset.StandardCharsets;

/** The {@code incremental:} section: overlap, capacity and statement budget of incremental reads. */
public class IncrementalConfig extends ReadCapacityConfig {
    /** PROTOCOL 4.2: each session re-reads this far behind its saved position. */
    @Min(0)
    @Max(86_400)
    private int overlapSeconds = 120;

    /** Seals cursors; empty derives a secret from the relay key, which every instance shares. */
    private String cursorSecret = "";

    /** The cursor secret before the last rotation: cursors it sealed are still read; empty for none. */
    private String previousCursorSecret = "";

    public IncrementalConfig() {
        super(4, 2, 5, 30, 2000);
    }

    @AssertTrue(message = "cursorSecret must be empty or at least 16 bytes")
    public boolean isCursorSecretValid() {
        return emptyOrLongEnough(cursorSecret);
    }

    @AssertTrue(message = "previousCursorSecret must be empty or at least 16 bytes")
    public boolean isPreviousCursorSecretValid() {
        return emptyOrLongEnough(previousCursorSecret);
    }

    private static boolean emptyOrLongEnough(String secret) {
        return secret.isEmpty() || secret.getBytes(StandardCharsets.UTF_8).length >= 16;
    }

    @JsonProperty
    public int getOverlapSeconds() {
        return overlapSeconds;
    }

    @JsonProperty
    public void setOverlapSeconds(int overlapSeconds) {
        this.overlapSeconds = overlapSeconds;
    }

    /** The overlap in the one unit readers use. */
    public Overlap overlap() {
        return Overlap.ofSeconds(overlapSeconds);
    }

    @JsonProperty
    public String getCursorSecret() {
        return cursorSecret;
    }

    @JsonProperty
    public void setCursorSecret(String cursorSecret) {
        this.cursorSecret = cursorSecret == null ? "" : cursorSecret;
    }

    @JsonProperty
    public String getPreviousCursorSecret() {
        return previousCursorSecret;
    }

    @JsonProperty
    public void setPreviousCursorSecret(String previousCursorSecret) {
        this.previousCursorSecret = previousCursorSecret == null ? "" : previousCursorSecret;
    }
}
