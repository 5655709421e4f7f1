package chat.buzz.relay.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Random JSON for fuzzing request parsers, biased toward what parsers get wrong: wrong types,
 * numbers at and past every edge, strings with NUL or lone surrogates, arrays around the size limits.
 */
public final class RandomJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> STRINGS = List.of(
            "",
            "x",
            "\u0000",
            "\ud800",
            "\ud83d\udc1d",
            "ab".repeat(32),
            "0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00",
            "0B9C3F5E-4D1E-4BDE-8A57-8D2B1C1F6E00",
            "0b9c3f5e4d1e4bde8a578d2b1c1f6e00",
            "current",
            "incremental",
            "sync",
            "\\",
            "\"",
            "1",
            " ".repeat(300),
            "AQIAAAAA");
    private static final int[] EDGES = {
        -1, 0, 1, 99, 100, 101, 999, 1000, 1001, 10_000, 10_001, Integer.MAX_VALUE, Integer.MIN_VALUE
    };

    private RandomJson() {}

    /** An object whose keys come mostly from {@code keys} and whose values are anything. */
    public static ObjectNode object(Random random, List<String> keys) {
        ObjectNode object = NODES.objectNode();
        int size = random.nextInt(6);
        for (int i = 0; i < size; i++) {
            String key = random.nextInt(10) == 0
                    ? STRINGS.get(random.nextInt(STRINGS.size()))
                    : keys.get(random.nextInt(keys.size()));
            object.set(key, value(random, 2));
        }
        return object;
    }

    public static JsonNode value(Random random, int depth) {
        return switch (random.nextInt(depth > 0 ? 14 : 10)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(EDGES[random.nextInt(EDGES.length)]);
            case 3 -> NODES.numberNode(random.nextLong());
            case 4 -> NODES.numberNode(new BigInteger(130, random));
            case 5 -> NODES.numberNode(random.nextDouble() * 200 - 50);
            case 6, 7 -> NODES.textNode(STRINGS.get(random.nextInt(STRINGS.size())));
            case 8, 9 -> uuids(random);
            case 10, 11 -> {
                ArrayNode array = NODES.arrayNode();
                int size = random.nextInt(4);
                for (int i = 0; i < size; i++) {
                    array.add(value(random, depth - 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = NODES.objectNode();
                object.set(STRINGS.get(random.nextInt(STRINGS.size())), value(random, depth - 1));
                yield object;
            }
        };
    }

    /** An array of ids around the contract's size limits (100 per incremental read, 1,000 per current filter). */
    private static ArrayNode uuids(Random random) {
        int[] sizes = {0, 1, 2, 100, 101, 1000, 1001};
        int size = sizes[random.nextInt(sizes.length)];
        ArrayNode array = NODES.arrayNode();
        for (int i = 0; i < size; i++) {
            array.add(
                    random.nextInt(50) == 0
                            ? STRINGS.get(random.nextInt(STRINGS.size()))
                            : new UUID(random.nextLong(), random.nextLong()).toString());
        }
        return array;
    }
}
