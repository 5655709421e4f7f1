package chat.buzz.relay.query;

import chat.buzz.protocol.Limits;
import chat.buzz.protocol.StrictJson;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.events.TagReader;
import chat.buzz.relay.web.StorableText;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PROTOCOL 4, mode "current": live heads matching #h, #d and other #tag filters.
 *
 * @param tagFilters tag name to accepted values, for tags other than h and d
 */
public record CurrentFilter(
        List<String> channels, List<String> artifacts, Map<String, List<String>> tagFilters, int limit, int offset) {

    public static CurrentFilter parse(JsonNode filter) {
        List<String> channels = List.of();
        List<String> artifacts = List.of();
        Map<String, List<String>> tags = new LinkedHashMap<>();
        int limit = Limits.CURRENT_DEFAULT_LIMIT;
        int offset = 0;
        checkTagKeyCount(filter);
        for (Iterator<Map.Entry<String, JsonNode>> fields = filter.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            String key = field.getKey();
            JsonNode value = field.getValue();
            switch (key) {
                case "artifact" -> {}
                case "limit" -> limit = integer(key, value, 1, Limits.CURRENT_MAX_LIMIT);
                case "offset" -> offset = integer(key, value, 0, Limits.CURRENT_MAX_OFFSET);
                case Tags.FILTER_CHANNEL -> channels = uuids(key, value);
                case Tags.FILTER_ARTIFACT_ID -> artifacts = uuids(key, value);
                default -> {
                    if (!key.startsWith(Tags.FILTER_PREFIX) || key.length() < 2 || key.length() > 65) {
                        throw new QueryRejection("unknown filter key " + key);
                    }
                    if (StorableText.hasNul(key)) {
                        throw new QueryRejection("tag names must not contain NUL (U+0000)");
                    }
                    if (StrictJson.hasUnpairedSurrogate(key)) {
                        throw new QueryRejection("tag names must not contain an unpaired UTF-16 surrogate");
                    }
                    tags.put(key.substring(Tags.FILTER_PREFIX.length()), strings(key, value));
                }
            }
        }
        int values = channels.size()
                + artifacts.size()
                + tags.values().stream().mapToInt(List::size).sum();
        if (values > Limits.CURRENT_MAX_VALUES) {
            throw new QueryRejection("a filter may have at most " + Limits.CURRENT_MAX_VALUES + " tag values in all");
        }
        return new CurrentFilter(channels, artifacts, Map.copyOf(tags), limit, offset);
    }

    private static void checkTagKeyCount(JsonNode filter) {
        int keys = 0;
        for (Iterator<String> names = filter.fieldNames(); names.hasNext(); ) {
            if (names.next().startsWith(Tags.FILTER_PREFIX)) {
                keys++;
            }
        }
        if (keys > Limits.CURRENT_MAX_TAG_KEYS) {
            throw new QueryRejection("a filter may have at most " + Limits.CURRENT_MAX_TAG_KEYS + " tag keys");
        }
    }

    private static int integer(String key, JsonNode value, int min, int max) {
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < min || value.intValue() > max) {
            throw new QueryRejection(key + " must be an integer in " + min + ".." + max);
        }
        return value.intValue();
    }

    private static List<String> strings(String key, JsonNode value) {
        if (!value.isArray() || value.isEmpty() || value.size() > Limits.CURRENT_MAX_VALUES) {
            throw new QueryRejection(key + " must be an array of 1.." + Limits.CURRENT_MAX_VALUES + " strings");
        }
        List<String> values = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw new QueryRejection(key + " must be an array of strings");
            }
            if (StorableText.hasNul(item.textValue())) {
                throw new QueryRejection(key + " values must not contain NUL (U+0000)");
            }
            if (StrictJson.hasUnpairedSurrogate(item.textValue())) {
                throw new QueryRejection(key + " values must not contain an unpaired UTF-16 surrogate");
            }
            values.add(item.textValue());
        }
        return List.copyOf(values);
    }

    private static List<String> uuids(String key, JsonNode value) {
        List<String> values = strings(key, value);
        for (String id : values) {
            if (!TagReader.isCanonicalUuid(id)) {
                throw new QueryRejection(key + " values must be lowercase hyphenated UUIDs");
            }
        }
        return values;
    }
}
