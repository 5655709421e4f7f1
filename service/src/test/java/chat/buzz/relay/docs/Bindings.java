package chat.buzz.relay.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Holds a documented answer to a real one. Values that differ on every run (a cursor, the policy stamp, a
 * challenge, the id of a freshly signed auth event) are learned: the first time the document shows one,
 * the real value is bound to it, and the same documented value must then stand for the same real value
 * everywhere, requests included ({@link #substitute}). Everything else must be equal: field names, types,
 * array lengths, numbers, booleans and strings.
 */
final class Bindings {
    /** Object fields whose value is per run: the opaque cursor and the policy stamp. */
    private static final Set<String> LEARNED_FIELDS = Set.of("cursor", "policy");

    private final Map<String, String> realByDocumented = new HashMap<>();

    void bind(String documented, String real) {
        String earlier = realByDocumented.putIfAbsent(documented, real);
        if (earlier != null) {
            assertEquals(earlier, real, "the document uses " + documented + " for two different real values");
        }
    }

    /** The documented text with every learned value replaced by its real one. */
    String substitute(String documented) {
        String text = documented;
        for (Map.Entry<String, String> binding : realByDocumented.entrySet()) {
            text = text.replace(binding.getKey(), binding.getValue());
        }
        return text;
    }

    void expect(String where, JsonNode documented, JsonNode real) {
        assertEquals(documented.getNodeType(), real.getNodeType(), where + ": type; the relay sent " + real);
        if (documented.isObject()) {
            assertEquals(fieldNames(documented), fieldNames(real), where + ": field names; the relay sent " + real);
            for (String field : fieldNames(documented)) {
                JsonNode doc = documented.get(field);
                if (LEARNED_FIELDS.contains(field) && doc.isTextual()) {
                    learn(where + "." + field, doc, real.get(field));
                } else {
                    expect(where + "." + field, doc, real.get(field));
                }
            }
        } else if (documented.isArray()) {
            assertEquals(documented.size(), real.size(), where + ": array length; the relay sent " + real);
            for (int i = 0; i < documented.size(); i++) {
                expect(where + "[" + i + "]", documented.get(i), real.get(i));
            }
        } else if (documented.isTextual()) {
            assertEquals(substitute(documented.asText()), real.asText(), where);
        } else {
            assertEquals(documented, real, where);
        }
    }

    void learn(String where, JsonNode documented, JsonNode real) {
        assertTrue(real.isTextual(), where + " is a string; the relay sent " + real);
        assertFalse(real.asText().isEmpty(), where + " is not empty");
        bind(documented.asText(), real.asText());
    }

    private static Set<String> fieldNames(JsonNode node) {
        Set<String> names = new TreeSet<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
