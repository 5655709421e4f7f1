package chat.buzz.relay.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Holds documented relay-signed events (channel metadata 39000-39002, the kind-5 that withdraws a channel)
 * to real ones. Their {@code created_at} comes from the database's clock, so the id and signature that
 * follow from it differ on every run: the real event must carry a valid id and signature, a
 * {@code created_at} within the run, and the id and signature are learned (the same documented id must stand
 * for the same real one everywhere, which holds a reproducible event to its bytes). Everything else must be
 * as documented. A list answers newest first with ties by channel and kind; documented and real are then
 * compared kind by kind, since whether a channel's members were stamped in the same second as its settings
 * is up to the clock.
 */
final class RelaySignedEvents {
    private static final Set<Integer> KINDS =
            Set.of(Kinds.DELETION, Kinds.CHANNEL_METADATA, Kinds.CHANNEL_ADMINS, Kinds.CHANNEL_MEMBERS);
    private static final Comparator<JsonNode> NEWEST_FIRST = Comparator.<JsonNode>comparingLong(
                    e -> -e.path("created_at").asLong())
            .thenComparing(RelaySignedEvents::channel)
            .thenComparingInt(e -> e.path("kind").asInt());
    private static final Comparator<JsonNode> BY_ADDRESS = Comparator.<JsonNode, String>comparing(
                    RelaySignedEvents::channel)
            .thenComparingInt(e -> e.path("kind").asInt());

    private final Bindings bindings;
    private final long runStarted;

    RelaySignedEvents(Bindings bindings, Instant runStarted) {
        this.bindings = bindings;
        this.runStarted = runStarted.getEpochSecond();
    }

    /** Whether a documented event is one the relay signs on the fly. */
    static boolean isRelaySigned(JsonNode event) {
        return event.isObject() && KINDS.contains(event.path("kind").asInt(-1));
    }

    /** Whether a documented answer is a list of such events only. */
    static boolean isListOfThem(JsonNode answer) {
        if (!answer.isArray() || answer.isEmpty()) {
            return false;
        }
        for (JsonNode event : answer) {
            if (!isRelaySigned(event)) {
                return false;
            }
        }
        return true;
    }

    void expectList(String where, List<JsonNode> documented, List<JsonNode> real) {
        assertEquals(documented.size(), real.size(), where + ": how many events; the relay sent " + real);
        List<JsonNode> ordered = new ArrayList<>(real);
        ordered.sort(NEWEST_FIRST);
        assertEquals(ordered, real, where + ": newest first, ties by channel and kind");
        List<JsonNode> docs = new ArrayList<>(documented);
        List<JsonNode> reals = new ArrayList<>(real);
        docs.sort(BY_ADDRESS);
        reals.sort(BY_ADDRESS);
        for (int i = 0; i < docs.size(); i++) {
            expectEvent(where + " kind " + docs.get(i).path("kind"), docs.get(i), reals.get(i));
        }
    }

    private void expectEvent(String where, JsonNode documented, JsonNode real) {
        Event event = Event.fromJson(real);
        assertTrue(event.hasValidId(), where + ": id; the relay sent " + real);
        assertTrue(event.hasValidSignature(), where + ": signature; the relay sent " + real);
        JsonNode createdAt = real.path("created_at");
        assertTrue(createdAt.isIntegralNumber(), where + ": created_at is a whole number of seconds");
        long now = Instant.now().getEpochSecond();
        assertTrue(
                createdAt.asLong() >= runStarted && createdAt.asLong() <= now,
                where + ": created_at " + createdAt + " is a time of this run, " + runStarted + ".." + now);
        bindings.learn(where + ".id", documented.path("id"), real.path("id"));
        bindings.learn(where + ".sig", documented.path("sig"), real.path("sig"));
        bindings.expect(where, withoutPerRunFields(documented), withoutPerRunFields(real));
    }

    private static JsonNode withoutPerRunFields(JsonNode event) {
        ObjectNode copy = event.deepCopy();
        copy.remove(List.of("id", "sig", "created_at"));
        return copy;
    }

    /** The channel an event is about: its {@code d}, or for a kind-5 its first address. */
    private static String channel(JsonNode event) {
        for (JsonNode tag : event.path("tags")) {
            String name = tag.path(0).asText();
            if (name.equals(Tags.ARTIFACT_ID) || name.equals(Tags.ADDRESS)) {
                return tag.path(1).asText().replaceFirst("^.*:", "");
            }
        }
        return "";
    }
}
