package chat.buzz.relay.gate;

import java.time.Instant;
import java.util.List;

/** One recorded flip: who, when, why, and the effective value before and after. */
public record FlagHistoryEntry(
        long id,
        String gate,
        String operator,
        Instant changedAt,
        String action,
        String reason,
        boolean oldValue,
        boolean newValue,
        boolean forced,
        List<String> unmet) {
    public FlagHistoryEntry {
        unmet = unmet == null ? List.of() : List.copyOf(unmet);
    }
}
