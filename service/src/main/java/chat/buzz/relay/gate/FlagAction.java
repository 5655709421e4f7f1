package chat.buzz.relay.gate;

import java.util.Locale;
import java.util.Optional;

/** What an operator does to a gate: force it on, force it off, or hand it back to the environment. */
public enum FlagAction {
    ON,
    OFF,
    CLEAR;

    public static Optional<FlagAction> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "on", "true", "enable" -> Optional.of(ON);
            case "off", "false", "disable" -> Optional.of(OFF);
            case "clear", "default" -> Optional.of(CLEAR);
            default -> Optional.empty();
        };
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    Boolean overrideValue() {
        return switch (this) {
            case ON -> Boolean.TRUE;
            case OFF -> Boolean.FALSE;
            case CLEAR -> null;
        };
    }
}
