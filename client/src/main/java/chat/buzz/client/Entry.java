package chat.buzz.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One entry of a delta, bootstrap or known-ID answer (PROTOCOL 4.1): an upsert carries the head event
 * (as its JSON text, stored verbatim) and its channel; a remove carries a reason.
 */
public record Entry(boolean upsert, String d, String h, String headId, String eventJson, String reason) {
    public static Entry parse(JsonNode entry) {
        String op = entry.path("op").asText();
        String d = entry.path("d").asText();
        if (d.isEmpty()) {
            throw new ProtocolViolation("an entry without d: " + entry);
        }
        return switch (op) {
            case "upsert" -> {
                JsonNode event = entry.path("event");
                if (!event.isObject() || !event.path("id").isTextual()) {
                    throw new ProtocolViolation("an upsert without its head event: " + entry);
                }
                yield new Entry(true, d, entry.path("h").asText(null), event.get("id").asText(), event.toString(), null);
            }
            case "remove" -> new Entry(false, d, null, null, null, entry.path("reason").asText("unavailable"));
            default -> throw new ProtocolViolation("an entry with op \"" + op + "\": " + entry);
        };
    }
}
