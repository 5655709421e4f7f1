package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Seeded fuzzing of the event parser: whatever the input, parsing (and verifying what parsed) either
 * succeeds or fails with the exceptions the relay turns into a 400; nothing else escapes.
 */
class EventParserFuzzTest {
    private static final NostrKeys KEYS =
            NostrKeys.fromSecretHex("0000000000000000000000000000000000000000000000000000000000000003");
    private static final String VALID = KEYS.sign(
                    Kinds.ARTIFACT_REVISION,
                    1_795_000_000L,
                    List.of(
                            List.of(Tags.ARTIFACT_FLAG, "1"),
                                    List.of(Tags.ARTIFACT_ID, "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00"),
                            List.of(Tags.CHANNEL, "4f0c7c3e-2b0a-4c1e-9d53-6a1f0e2b7c11"),
                                    List.of(Tags.TITLE, "caf\u00e9 \ud83d\udc1d")),
                    "content with \"quotes\" and \\ and \n")
            .toJson();

    @Property(tries = 3000, seed = "20261201")
    void anyTextParsesOrIsMalformed(@ForAll("jsonish") String text) {
        assertOnlyExpectedFailures(text);
    }

    @Property(tries = 3000, seed = "20261202")
    void mutationsOfAValidEventParseOrAreMalformed(@ForAll("mutatedEvents") String text) {
        assertOnlyExpectedFailures(text);
    }

    @Property(tries = 3000, seed = "20261203")
    void treesWithOneNodeReplacedParseOrAreMalformed(@ForAll("eventsWithOneNodeReplaced") String text) {
        assertOnlyExpectedFailures(text);
    }

    @Example
    void theUnmutatedEventParsesAndVerifies() {
        Event event = Event.parse(VALID);
        event.verify();
        assertThat(event.toJson()).isEqualTo(VALID);
    }

    private static void assertOnlyExpectedFailures(String text) {
        Event event;
        try {
            event = Event.parse(text);
        } catch (MalformedEventException expected) {
            return;
        }
        try {
            event.verify();
        } catch (InvalidEventException expected) {
            // a 400 "invalid: ..." at the relay
        }
    }

    /** Fragments of JSON and of events, glued at random: far likelier to reach deep parser states than noise. */
    @Provide
    Arbitrary<String> jsonish() {
        Arbitrary<String> fragments = Arbitraries.of(
                "{",
                "}",
                "[",
                "]",
                ",",
                ":",
                "\"",
                "\\",
                "\\u0000",
                "\\ud800",
                "\"id\"",
                "\"pubkey\"",
                "\"created_at\"",
                "\"kind\"",
                "\"tags\"",
                "\"content\"",
                "\"sig\"",
                "0",
                "-1",
                "1e999",
                "99999999999999999999999",
                "1.5",
                "true",
                "null",
                "\"x\"",
                "\u0000",
                "\ud83d",
                "\"" + "ab".repeat(32) + "\"",
                "[[\"d\",\"x\"]]",
                " ",
                "\u00ff");
        return fragments.list().ofMaxSize(60).map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> mutatedEvents() {
        Arbitrary<Integer> at = Arbitraries.integers().between(0, VALID.length());
        Arbitrary<String> insert = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(8),
                Arbitraries.of(
                        "\"kind\":1,", "{", "]", "\\", "\"", "\u0000", "\ud800", "9".repeat(30), ",\"sig\":\"\""));
        Arbitrary<String> inserted =
                Combinators.combine(at, insert).as((i, s) -> VALID.substring(0, i) + s + VALID.substring(i));
        Arbitrary<String> truncated = at.map(i -> VALID.substring(0, i));
        Arbitrary<String> cut = Combinators.combine(at, at)
                .as((a, b) -> VALID.substring(0, Math.min(a, b)) + VALID.substring(Math.max(a, b)));
        Arbitrary<String> flipped = Combinators.combine(at.filter(i -> i < VALID.length()), Arbitraries.chars())
                .as((i, c) -> VALID.substring(0, i) + c + VALID.substring(i + 1));
        return Arbitraries.oneOf(inserted, truncated, cut, flipped);
    }

    /** The valid event's tree with one node (a field, a tag, a tag element) swapped for any JSON value. */
    @Provide
    Arbitrary<String> eventsWithOneNodeReplaced() {
        return Arbitraries.randomValue(random -> {
            ObjectNode event = (ObjectNode) StrictJsonTestValues.parse(VALID);
            List<JsonNode> containers = new ArrayList<>();
            collectContainers(event, containers);
            JsonNode target = containers.get(random.nextInt(containers.size()));
            JsonNode replacement = StrictJsonTestValues.randomValue(random, 3);
            if (target instanceof ObjectNode object) {
                List<String> names = new ArrayList<>();
                object.fieldNames().forEachRemaining(names::add);
                String name = random.nextInt(8) == 0 ? "extra" : names.get(random.nextInt(names.size()));
                if (random.nextInt(6) == 0) {
                    object.remove(name);
                } else {
                    object.set(name, replacement);
                }
            } else {
                ArrayNode array = (ArrayNode) target;
                if (array.isEmpty() || random.nextInt(6) == 0) {
                    array.add(replacement);
                } else if (random.nextInt(6) == 0) {
                    array.remove(random.nextInt(array.size()));
                } else {
                    array.set(random.nextInt(array.size()), replacement);
                }
            }
            return event.toString();
        });
    }

    private static void collectContainers(JsonNode node, List<JsonNode> containers) {
        if (node.isContainerNode()) {
            containers.add(node);
            node.forEach(child -> collectContainers(child, containers));
        }
    }
}
