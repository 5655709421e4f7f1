package chat.buzz.client;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
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
                yield new Entry(
                        true, d, entry.path("h").asText(null), event.get("id").asText(), event.toString(), null);
            }
            case "remove" ->
                new Entry(false, d, null, null, null, entry.path("reason").asText("unavailable"));
            default -> throw new ProtocolViolation("an entry with op \"" + op + "\": " + entry);
        };
    }

    /**
     * A change that arrived over WebSocket sync (PROTOCOL 5): a head (45010) enters or changes; a
     * relay-signed removal marker (45011) leaves.
     */
    public static Entry fromSyncEvent(JsonNode event) {
        chat.buzz.protocol.Event parsed = chat.buzz.protocol.Event.fromJson(event);
        String d = parsed.tag(Tags.ARTIFACT_ID)
                .orElseThrow(() -> new ProtocolViolation("a sync EVENT without d: " + event));
        return switch (parsed.kind()) {
            case Kinds.ARTIFACT_REVISION ->
                new Entry(true, d, parsed.tag(Tags.CHANNEL).orElse(null), parsed.id(), event.toString(), null);
            case Kinds.REMOVAL_MARKER ->
                new Entry(
                        false,
                        d,
                        null,
                        null,
                        null,
                        parsed.tag(Tags.REMOVAL_REASON).orElse("unavailable"));
            default -> throw new ProtocolViolation("a sync EVENT of kind " + parsed.kind());
        };
    }

    /** The head's {@code prev} tag: the revision it replaced (absent on a create). */
    public String prev() {
        if (!upsert) {
            return null;
        }
        try {
            for (JsonNode tag : SignedHttp.JSON.readTree(eventJson).path("tags")) {
                if (Tags.PREVIOUS_REVISION.equals(tag.path(0).asText())
                        && tag.path(1).isTextual()) {
                    return tag.path(1).asText();
                }
            }
            return null;
        } catch (java.io.IOException e) {
            throw new ProtocolViolation("a head that is not JSON: " + eventJson);
        }
    }
}
