package chat.buzz.relay.ops;

import chat.buzz.protocol.StrictJson;
import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.web.BoundedBody;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * The bodies the admin API accepts, as typed records. Each field is read by {@link OperatorInput}, so a
 * switch may be sent as a boolean or as a string ({@code "force": true}, {@code "dryRun": "yes"}), and a
 * bad value is the same 400 as the tasks give. Fields the API does not know are ignored.
 */
final class OpsApiRequests {
    static final int MAX_BODY = 16 * 1024;

    /** Without wrapping, a refusal thrown while a field is read comes out as itself. */
    private static final ObjectReader RECORDS = new ObjectMapper()
            .reader()
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .without(DeserializationFeature.WRAP_EXCEPTIONS);

    private OpsApiRequests() {}

    /** {@code POST /api/flags} */
    record FlagChange(
            @JsonDeserialize(using = OperatorInput.GateName.class)
            Gate gate,

            @JsonDeserialize(using = OperatorInput.Action.class)
            FlagAction value,

            @JsonDeserialize(using = OperatorInput.Text.class)
            String reason,

            @JsonDeserialize(using = OperatorInput.YesNo.class)
            boolean force) {}

    /** {@code POST /api/migrations/record} */
    record MigrationRecord(
            @JsonDeserialize(using = OperatorInput.Text.class)
            String id,

            @JsonDeserialize(using = OperatorInput.Text.class)
            String reason) {}

    /** {@code POST /api/instances/forget} */
    record ForgetInstance(
            @JsonDeserialize(using = OperatorInput.Text.class)
            String instanceId,

            @JsonDeserialize(using = OperatorInput.Text.class)
            String reason) {}

    /** {@code POST /api/rollback} */
    record Rollback(
            @JsonDeserialize(using = OperatorInput.YesNo.class)
            boolean dryRun,

            @JsonDeserialize(using = OperatorInput.Confirmation.class)
            boolean confirm,

            @JsonDeserialize(using = OperatorInput.Text.class)
            String reason,

            @JsonDeserialize(using = OperatorInput.YesNo.class)
            boolean force) {}

    /** A JSON object of at most {@link #MAX_BODY} bytes, sent as application/json, as a {@code type}. */
    static <T> T read(String contentType, InputStream in, Class<T> type) throws IOException {
        return bind(object(contentType, in), type);
    }

    static <T> T bind(JsonNode body, Class<T> type) {
        try {
            return RECORDS.treeToValue(body, type);
        } catch (JacksonException e) {
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof OpsRefusal refusal) {
                    throw refusal;
                }
            }
            throw new OpsRefusal(400, "invalid_json", "the body does not fit the request");
        }
    }

    private static JsonNode object(String contentType, InputStream in) throws IOException {
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw new OpsRefusal(415, "json_required", "send the body as application/json");
        }
        byte[] bytes = BoundedBody.read(in, MAX_BODY)
                .orElseThrow(
                        () -> new OpsRefusal(413, "body_too_large", "the body is limited to " + MAX_BODY + " bytes"));
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
}
