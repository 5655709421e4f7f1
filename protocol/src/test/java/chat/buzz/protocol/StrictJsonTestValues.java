package chat.buzz.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.Random;

/** Random JSON values for fuzzing, biased toward what parsers get wrong: edges of types and numbers. */
final class StrictJsonTestValues {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] STRINGS = {
        "",
        "x",
        "\u0000",
        "\ud800",
        "\ud83d\udc1d",
        "ab".repeat(32),
        "AB".repeat(32),
        "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00",
        "\\",
        "\"",
        "1",
        "create",
        " ".repeat(300)
    };

    private StrictJsonTestValues() {}

    static JsonNode parse(String json) {
        try {
            return StrictJson.read(json);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static JsonNode randomValue(Random random, int depth) {
        int choice = random.nextInt(depth > 0 ? 12 : 9);
        return switch (choice) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(random.nextInt());
            case 3 -> NODES.numberNode(random.nextLong());
            case 4 -> NODES.numberNode(new BigInteger(130, random).negate());
            case 5 -> NODES.numberNode(random.nextDouble() * 1e6);
            case 6, 7 -> NODES.textNode(STRINGS[random.nextInt(STRINGS.length)]);
            case 8 -> NODES.numberNode(random.nextInt(70000) - 2);
            case 9, 10 -> {
                ArrayNode array = NODES.arrayNode();
                int size = random.nextInt(4);
                for (int i = 0; i < size; i++) {
                    array.add(randomValue(random, depth - 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                int size = random.nextInt(3);
                for (int i = 0; i < size; i++) {
                    object.set(STRINGS[random.nextInt(STRINGS.length)], randomValue(random, depth - 1));
                }
                yield object;
            }
        };
    }
}
