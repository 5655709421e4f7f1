package chat.buzz.relay.ops;

import chat.buzz.relay.gate.DatabaseGates;
import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.Gate;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;

/**
 * What an operator's words mean, the same for the admin API's JSON bodies and the tasks' form
 * parameters: a gate's name, on/off/clear, a yes-or-no switch, the rollback's "yes". A JSON field may
 * be a string or any other scalar ({@code "force": true} and {@code "force": "yes"} alike), since the
 * console sends booleans and operators with curl send strings. Each bad value is its own 400.
 */
final class OperatorInput {
    private OperatorInput() {}

    static Gate gate(String name) {
        return DatabaseGates.parseGate(name)
                .orElseThrow(() -> new OpsRefusal(
                        400,
                        "unknown_gate",
                        "gate must be one of "
                                + Arrays.stream(Gate.values())
                                        .map(DatabaseGates::wireName)
                                        .toList()));
    }

    static FlagAction action(String value) {
        return FlagAction.parse(value)
                .orElseThrow(() -> new OpsRefusal(400, "invalid_value", "value must be on, off or clear"));
    }

    /** Left out or blank is no; {@code name} is the form parameter's name ("dry-run"). */
    static boolean yesNo(String name, String value) {
        if (value == null || value.isBlank()) {
            return false;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw new OpsRefusal(400, "invalid_" + name.replace('-', '_'), name + " must be true or false");
        };
    }

    /** The schema rollback's confirmation: exactly "yes", or nothing. */
    static boolean confirmed(String value) {
        if (value == null || value.isBlank()) {
            return false;
        }
        if (!value.strip().equalsIgnoreCase("yes")) {
            throw new OpsRefusal(400, "invalid_confirm", "confirm must be exactly yes");
        }
        return true;
    }

    /** A JSON scalar as text; an array or object is refused under the field's own name. */
    private static String scalar(JsonParser p) throws IOException {
        if (!p.currentToken().isScalarValue()) {
            String field = p.currentName();
            throw new OpsRefusal(400, "invalid_" + field, field + " must be a string or boolean");
        }
        return p.getText();
    }

    /** The field's name as the tasks spell it: {@code dryRun} is {@code dry-run}. */
    private static String taskName(JsonParser p) throws IOException {
        return p.currentName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    static final class Text extends JsonDeserializer<String> {
        @Override
        public String deserialize(JsonParser p, DeserializationContext context) throws IOException {
            return scalar(p);
        }
    }

    /** Required: null or left out is refused as an unknown gate, as an empty form parameter is. */
    static final class GateName extends JsonDeserializer<Gate> {
        @Override
        public Gate deserialize(JsonParser p, DeserializationContext context) throws IOException {
            return gate(scalar(p));
        }

        @Override
        public Gate getNullValue(DeserializationContext context) {
            return gate(null);
        }
    }

    /** Required, as {@link GateName} is. */
    static final class Action extends JsonDeserializer<FlagAction> {
        @Override
        public FlagAction deserialize(JsonParser p, DeserializationContext context) throws IOException {
            return action(scalar(p));
        }

        @Override
        public FlagAction getNullValue(DeserializationContext context) {
            return action(null);
        }
    }

    static final class YesNo extends JsonDeserializer<Boolean> {
        @Override
        public Boolean deserialize(JsonParser p, DeserializationContext context) throws IOException {
            return yesNo(taskName(p), scalar(p));
        }

        @Override
        public Boolean getNullValue(DeserializationContext context) {
            return false;
        }
    }

    static final class Confirmation extends JsonDeserializer<Boolean> {
        @Override
        public Boolean deserialize(JsonParser p, DeserializationContext context) throws IOException {
            return confirmed(scalar(p));
        }

        @Override
        public Boolean getNullValue(DeserializationContext context) {
            return false;
        }
    }
}
