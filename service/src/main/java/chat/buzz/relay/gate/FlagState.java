package chat.buzz.relay.gate;

import java.time.Instant;

/**
 * A gate as operators see it.
 *
 * @param override null when the environment default applies
 */
public record FlagState(
        String gate,
        String capability,
        String environmentVariable,
        boolean environmentDefault,
        Boolean override,
        boolean effective,
        Instant updatedAt,
        String updatedBy) {}
