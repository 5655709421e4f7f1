package chat.buzz.protocol;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** Strict decoding of the event object; anything a careful relay would refuse is refused here. */
final class EventJsonReader {
    private static final Set<String> FIELDS = Set.of("id", "pubkey", "created_at", "kind", "tags", "content", "sig");

    private EventJsonReader() {}

    static JsonNode readTree(String json) {
        if (json == null) {
            throw new MalformedEventException("event must be a JSON object");
        }
        try {
            return StrictJson.read(json);
        } catch (JacksonException e) {
            throw new MalformedEventException("invalid JSON");
        }
    }

    static Event fromJson(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new MalformedEventException("event must be a JSON object");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new MalformedEventException("unknown field: " + abbreviate(name));
            }
        }
        String id = hexField(node, "id", 32);
        String pubkey = hexField(node, "pubkey", 32);
        long createdAt = createdAt(required(node, "created_at"));
        int kind = kind(required(node, "kind"));
        List<List<String>> tags = tags(required(node, "tags"));
        String content = string(required(node, "content"), "content");
        String sig = hexField(node, "sig", 64);
        return new Event(id, pubkey, createdAt, kind, tags, content, sig);
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new MalformedEventException("missing field: " + field);
        }
        return value;
    }

    private static String hexField(JsonNode node, String field, int bytes) {
        String value = string(required(node, field), field);
        if (!Hex.isLowerHex(value, bytes)) {
            throw new MalformedEventException(field + " must be " + bytes * 2 + " lowercase hex characters");
        }
        return value;
    }

    private static long createdAt(JsonNode value) {
        if (!value.isIntegralNumber()) {
            throw new MalformedEventException("created_at must be an integer");
        }
        if (!value.canConvertToLong()) {
            throw new MalformedEventException("created_at is out of range");
        }
        long seconds = value.longValue();
        if (seconds < 0) {
            throw new MalformedEventException("created_at must not be negative");
        }
        return seconds;
    }

    private static int kind(JsonNode value) {
        if (!value.isIntegralNumber()) {
            throw new MalformedEventException("kind must be an integer");
        }
        if (!value.canConvertToInt() || value.intValue() < 0 || value.intValue() > 65535) {
            throw new MalformedEventException("kind must be between 0 and 65535");
        }
        return value.intValue();
    }

    private static List<List<String>> tags(JsonNode value) {
        if (!value.isArray()) {
            throw new MalformedEventException("tags must be an array");
        }
        List<List<String>> tags = new ArrayList<>(value.size());
        for (JsonNode tag : value) {
            if (!tag.isArray()) {
                throw new MalformedEventException("each tag must be an array");
            }
            if (tag.isEmpty()) {
                throw new MalformedEventException("each tag must be non-empty");
            }
            List<String> items = new ArrayList<>(tag.size());
            for (JsonNode item : tag) {
                items.add(string(item, "tag element"));
            }
            tags.add(items);
        }
        return tags;
    }

    private static String string(JsonNode value, String what) {
        if (!value.isTextual()) {
            throw new MalformedEventException(what + " must be a string");
        }
        String s = value.textValue();
        // A lone surrogate has no UTF-8 form, so the id over it would be ill-defined.
        if (StrictJson.hasUnpairedSurrogate(s)) {
            throw new MalformedEventException(what + " contains an unpaired UTF-16 surrogate");
        }
        return s;
    }

    private static String abbreviate(String name) {
        return name.length() <= 40 ? name : name.substring(0, 40) + "...";
    }
}
