package chat.buzz.relay.ops;

import chat.buzz.protocol.StrictJson;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * The bodies the admin API accepts. A field may be a string or a boolean (runbooks send
 * {@code "force": true} and {@code "dryRun": "yes"} alike); {@link OperatorActions} reads their meaning,
 * the same way for the API and for the tasks.
 */
final class OpsApiRequests {
    static final int MAX_BODY = 16 * 1024;

    private OpsApiRequests() {}

    /** {@code POST /api/flags} */
    record FlagChange(String gate, String value, String reason, String force) {
        static FlagChange of(JsonNode body) {
            return new FlagChange(text(body, "gate"), text(body, "value"), text(body, "reason"), text(body, "force"));
        }
    }

    /** {@code POST /api/migrations/record} */
    record MigrationRecord(String id, String reason) {
        static MigrationRecord of(JsonNode body) {
            return new MigrationRecord(text(body, "id"), text(body, "reason"));
        }
    }

    /** {@code POST /api/rollback} */
    record Rollback(String dryRun, String confirm, String reason, String force) {
        static Rollback of(JsonNode body) {
            return new Rollback(text(body, "dryRun"), text(body, "confirm"), text(body, "reason"), text(body, "force"));
        }
    }

    /** A JSON object of at most {@link #MAX_BODY} bytes, sent as application/json. */
    static JsonNode read(String contentType, InputStream in) throws IOException {
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new OpsRefusal(415, "json_required", "send the body as application/json");
        }
        byte[] bytes = in.readNBytes(MAX_BODY + 1);
        if (bytes.length > MAX_BODY) {
            throw new OpsRefusal(413, "body_too_large", "the body is limited to " + MAX_BODY + " bytes");
        }
        try {
            JsonNode node = StrictJson.read(bytes);
            if (node == null || !node.isObject()) {
                throw new OpsRefusal(400, "invalid_json", "the body must be a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw new OpsRefusal(400, "invalid_json", "the body is not valid JSON");
        }
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isValueNode()) {
            throw new OpsRefusal(400, "invalid_" + field, field + " must be a string or boolean");
        }
        return value.asText();
    }
}
