package chat.buzz.relay.incremental;

import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.events.TagReader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A parsed incremental filter: a delta read (4.1), a known-ID read (4.3) or a digest read (4.4a).
 * Parsing needs no database.
 */
public sealed interface IncrementalRequest {

    /** @param scope the #h channel ids, sorted and without repeats; empty means no scope */
    record Delta(Optional<String> since, List<String> scope, int limit) implements IncrementalRequest {
        public boolean scoped() {
            return !scope.isEmpty();
        }
    }

    /** @param ids in request order, repeats kept: the answer has one entry per requested id */
    record KnownIds(List<String> ids) implements IncrementalRequest {}

    /** @param scope as in {@link Delta} */
    record Digest(List<String> scope) implements IncrementalRequest {
        public boolean scoped() {
            return !scope.isEmpty();
        }
    }

    static IncrementalRequest parse(ObjectNode filter) {
        Optional<String> since = Optional.empty();
        boolean digest = false;
        List<String> scope = null;
        List<String> ids = null;
        Integer limit = null;
        for (Iterator<Map.Entry<String, JsonNode>> fields = filter.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case "artifact" -> {}
                case "digest" -> {
                    if (!value.isBoolean() || !value.booleanValue()) {
                        throw IncrementalError.invalidRequest("digest must be true, or left out");
                    }
                    digest = true;
                }
                case "since" -> {
                    if (!value.isTextual() || value.textValue().isEmpty()) {
                        throw IncrementalError.invalidRequest("since must be a cursor string from an earlier response");
                    }
                    since = Optional.of(value.textValue());
                }
                case "limit" -> {
                    if (!value.isIntegralNumber()
                            || !value.canConvertToInt()
                            || value.intValue() < 1
                            || value.intValue() > Limits.INCREMENTAL_MAX_LIMIT) {
                        throw IncrementalError.invalidRequest(
                                "limit must be an integer in 1.." + Limits.INCREMENTAL_MAX_LIMIT);
                    }
                    limit = value.intValue();
                }
                case Tags.FILTER_CHANNEL -> {
                    if (value.isArray() && value.size() > Limits.MAX_SCOPE) {
                        throw IncrementalError.scopeTooLarge(Limits.MAX_SCOPE);
                    }
                    scope = uuids(Tags.FILTER_CHANNEL, value);
                }
                case Tags.FILTER_ARTIFACT_ID -> {
                    if (value.isArray() && value.size() > Limits.MAX_IDS) {
                        throw IncrementalError.tooManyIds(Limits.MAX_IDS);
                    }
                    ids = uuids(Tags.FILTER_ARTIFACT_ID, value);
                }
                default -> throw IncrementalError.invalidRequest("unknown key " + field.getKey());
            }
        }
        List<String> sortedScope = scope == null ? List.of() : List.copyOf(new TreeSet<>(scope));
        if (digest) {
            if (since.isPresent() || limit != null || ids != null) {
                throw IncrementalError.invalidRequest("a digest read takes no since, limit or #d; only #h");
            }
            return new Digest(sortedScope);
        }
        if (ids != null) {
            if (since.isPresent() || limit != null || scope != null) {
                throw IncrementalError.invalidRequest("a known-ID read (#d) takes no since, limit or #h");
            }
            return new KnownIds(List.copyOf(ids));
        }
        return new Delta(since, sortedScope, limit == null ? Limits.INCREMENTAL_PAGE_SIZE : limit);
    }

    private static List<String> uuids(String key, JsonNode value) {
        if (!value.isArray() || value.isEmpty()) {
            throw IncrementalError.invalidRequest(key + " must be a non-empty array of ids");
        }
        List<String> values = new ArrayList<>(value.size());
        for (JsonNode item : value) {
            if (!item.isTextual() || !TagReader.isCanonicalUuid(item.textValue())) {
                throw IncrementalError.invalidRequest(key + " values must be lowercase hyphenated UUIDs");
            }
            values.add(item.textValue());
        }
        return values;
    }
}
