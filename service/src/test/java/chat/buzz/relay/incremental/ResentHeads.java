package chat.buzz.relay.incremental;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Upserts of a head the client already holds, delivered by an earlier session (PROTOCOL 4.2: a relay
 * should not re-send what a previous session delivered unchanged). Fed every upsert before the client
 * applies it; an artifact that left the reader's view since its last delivery may rightly come again.
 */
final class ResentHeads {
    /** Whether the artifact left the reader's view after the given change count. */
    interface LeftSince {
        boolean test(String d, int change);
    }

    /** "d (delivered in session N, again in session M)", one per head sent again. */
    final List<String> found = new ArrayList<>();

    /** One head sent again: the artifact, and the writer's change count when it was delivered before. */
    record Resent(String d, int deliveredAtChange, String line) {}

    /** The same heads as {@link #found}, with when each was delivered before. */
    final List<Resent> resent = new ArrayList<>();

    private final Map<String, Delivery> lastDelivered = new HashMap<>();

    /** When a head was last delivered: the client's session and the writer's change count. */
    private record Delivery(int session, int change) {}

    /**
     * @param held    the head the client holds for this artifact now, or null
     * @param session the client's session number
     * @param change  how many changes the writer has made so far
     */
    void upsert(JsonNode entry, JsonNode held, int session, int change, LeftSince leftSince) {
        String d = entry.path("d").asText();
        String head = entry.path("event").path("id").asText();
        Delivery before = lastDelivered.put(d + " " + head, new Delivery(session, change));
        if (held != null
                && held.path("id").asText().equals(head)
                && before != null
                && before.session() < session
                && !leftSince.test(d, before.change())) {
            String line = d + " (delivered in session " + before.session() + ", again in session " + session + ")";
            found.add(line);
            resent.add(new Resent(d, before.change(), line));
        }
    }
}
