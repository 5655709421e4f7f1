package chat.buzz.relay.sync;

import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The filter of a sync REQ: {@code {"artifact":"sync", "#h":[...]?}}.
 *
 * @param scope the channels named in {@code #h}; empty means no scope (broad discovery)
 */
record SyncFilter(List<UUID> scope) {

    /** A filter the relay refuses; the message goes out after {@code invalid: }. */
    static final class Invalid extends RuntimeException {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    boolean scoped() {
        return !scope.isEmpty();
    }

    String[] scopeArray() {
        return scope.stream().map(UUID::toString).toArray(String[]::new);
    }

    static SyncFilter parse(JsonNode filter) {
        if (filter == null || !filter.isObject()) {
            throw new Invalid("the filter must be a JSON object");
        }
        JsonNode mode = filter.get("artifact");
        if (mode == null || !mode.isTextual() || !mode.asText().equals("sync")) {
            throw new Invalid("the filter must have \"artifact\":\"sync\"");
        }
        List<UUID> scope = List.of();
        for (Iterator<Map.Entry<String, JsonNode>> it = filter.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            switch (field.getKey()) {
                case "artifact" -> {}
                case Tags.FILTER_CHANNEL -> scope = channels(field.getValue());
                default ->
                    throw new Invalid(
                            "unknown filter key " + field.getKey() + " (a sync filter has only artifact and #h)");
            }
        }
        return new SyncFilter(scope);
    }

    private static List<UUID> channels(JsonNode values) {
        if (!values.isArray() || values.isEmpty()) {
            throw new Invalid("#h must be a non-empty array of channel ids");
        }
        if (values.size() > Limits.MAX_SCOPE) {
            throw new Invalid("#h names more than " + Limits.MAX_SCOPE + " channels");
        }
        Set<UUID> channels = new LinkedHashSet<>();
        for (JsonNode value : values) {
            if (!value.isTextual()) {
                throw new Invalid("#h must contain channel ids as strings");
            }
            channels.add(uuid(value.asText()));
        }
        return List.copyOf(new ArrayList<>(channels));
    }

    private static UUID uuid(String text) {
        try {
            UUID id = UUID.fromString(text);
            if (!id.toString().equals(text.toLowerCase(Locale.ROOT)) || text.length() != 36) {
                throw new IllegalArgumentException();
            }
            return id;
        } catch (IllegalArgumentException e) {
            throw new Invalid("not a channel id (hyphenated UUID): " + text);
        }
    }
}
