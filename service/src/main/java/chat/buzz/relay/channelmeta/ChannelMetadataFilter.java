package chat.buzz.relay.channelmeta;

import chat.buzz.protocol.Hex;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.events.TagReader;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * PROTOCOL 4.6: a NIP-01 filter without the {@code artifact} key, asking for channel metadata.
 *
 * @param kinds    the kinds asked for, among 39000-39002
 * @param channels the channels named by {@code #d}; empty for a broad listing
 * @param relayIsAnAuthor false when {@code authors} leaves the relay out: then nothing matches
 * @param since    the oldest {@code created_at} wanted (inclusive)
 * @param until    the newest {@code created_at} wanted (inclusive)
 */
public record ChannelMetadataFilter(
        Set<Integer> kinds, List<UUID> channels, boolean relayIsAnAuthor, long since, long until, int limit) {

    public static final Set<Integer> KINDS =
            Set.of(Kinds.CHANNEL_METADATA, Kinds.CHANNEL_ADMINS, Kinds.CHANNEL_MEMBERS);

    private static final String KINDS_EXPECTED = "kinds must be among " + kindList() + " (channel metadata) or be ["
            + Kinds.DELETION + "] (their deletions) in a filter without \"artifact\"";

    /** A filter this read does not accept; the message says why, without the {@code invalid: } prefix. */
    public static final class Invalid extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    public ChannelMetadataFilter {
        kinds = Set.copyOf(kinds);
        channels = List.copyOf(channels);
    }

    public boolean asksFor(int kind) {
        return kinds.contains(kind);
    }

    /** Whether a live change of {@code channel} can concern this filter. */
    public boolean concerns(UUID channel) {
        return relayIsAnAuthor && (channels.isEmpty() || channels.contains(channel));
    }

    /** @throws Invalid when the filter is not a channel-metadata read */
    public static ChannelMetadataFilter parse(JsonNode filter, String relayPubkey) {
        Set<Integer> kinds = null;
        List<UUID> channels = List.of();
        boolean relayIsAnAuthor = true;
        long since = 0;
        long until = Long.MAX_VALUE;
        int limit = Limits.CHANNEL_METADATA_MAX_LIMIT;
        for (Iterator<Map.Entry<String, JsonNode>> fields = filter.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case "kinds" -> kinds = kinds(value);
                case Tags.FILTER_CHANNEL_ID -> channels = channels(value);
                case "authors" -> relayIsAnAuthor = authors(value).contains(relayPubkey);
                case "since" -> since = timestamp("since", value);
                case "until" -> until = timestamp("until", value);
                case "limit" -> limit = limit(value);
                default ->
                    throw new Invalid("a filter without \"artifact\" reads channel metadata (kinds "
                            + kindList() + ") and takes only kinds, #d, authors, since, until and limit; not "
                            + field.getKey());
            }
        }
        if (kinds == null) {
            throw new Invalid(
                    "a filter without \"artifact\" reads channel metadata and needs \"kinds\" among " + kindList());
        }
        return new ChannelMetadataFilter(kinds, channels, relayIsAnAuthor, since, until, limit);
    }

    private static Set<Integer> kinds(JsonNode value) {
        if (!value.isArray() || value.isEmpty()) {
            throw new Invalid("kinds must be a non-empty array of kinds among " + kindList());
        }
        Set<Integer> kinds = new TreeSet<>();
        for (JsonNode kind : value) {
            if (!kind.isIntegralNumber() || !kind.canConvertToInt()) {
                throw new Invalid(KINDS_EXPECTED);
            }
            kinds.add(kind.intValue());
        }
        if (kinds.contains(Kinds.DELETION) && !kinds.equals(Set.of(Kinds.DELETION))) {
            throw new Invalid("a filter asks for channel metadata (kinds " + kindList() + ") or for their deletions"
                    + " (kinds [" + Kinds.DELETION + "]), not both: send them as two filters of one REQ");
        }
        if (!KINDS.containsAll(kinds)) {
            throw new Invalid(KINDS_EXPECTED);
        }
        return kinds;
    }

    /**
     * Whether a filter without {@code artifact} asks for deletions (kinds exactly [5]) rather than for
     * channel metadata; a filter mixing both is refused by {@link #parse}.
     */
    static boolean asksForDeletions(JsonNode filter) {
        JsonNode kinds = filter.get("kinds");
        if (kinds == null || !kinds.isArray() || kinds.isEmpty()) {
            return false;
        }
        for (JsonNode kind : kinds) {
            if (!kind.isIntegralNumber() || kind.longValue() != Kinds.DELETION) {
                return false;
            }
        }
        return true;
    }

    private static List<UUID> channels(JsonNode value) {
        if (!value.isArray() || value.isEmpty() || value.size() > Limits.CHANNEL_METADATA_MAX_IDS) {
            throw new Invalid("#d must be an array of 1.." + Limits.CHANNEL_METADATA_MAX_IDS + " channel ids");
        }
        List<UUID> channels = new ArrayList<>();
        for (JsonNode id : value) {
            if (!id.isTextual() || !TagReader.isCanonicalUuid(id.textValue())) {
                throw new Invalid("#d values must be channel ids: lowercase hyphenated UUIDs");
            }
            channels.add(UUID.fromString(id.textValue()));
        }
        return channels;
    }

    static Set<String> authors(JsonNode value) {
        if (!value.isArray() || value.isEmpty() || value.size() > Limits.CHANNEL_METADATA_MAX_IDS) {
            throw new Invalid("authors must be an array of 1.." + Limits.CHANNEL_METADATA_MAX_IDS + " pubkeys");
        }
        Set<String> authors = new TreeSet<>();
        for (JsonNode author : value) {
            if (!author.isTextual() || !Hex.isLowerHex(author.textValue(), 32)) {
                throw new Invalid("authors must be 64-character lowercase hex pubkeys");
            }
            authors.add(author.textValue());
        }
        return authors;
    }

    static long timestamp(String key, JsonNode value) {
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.longValue() < 0) {
            throw new Invalid(key + " must be a non-negative integer (seconds since the epoch)");
        }
        return value.longValue();
    }

    static int limit(JsonNode value) {
        if (!value.isIntegralNumber()
                || !value.canConvertToInt()
                || value.intValue() < 1
                || value.intValue() > Limits.CHANNEL_METADATA_MAX_LIMIT) {
            throw new Invalid("limit must be an integer in 1.." + Limits.CHANNEL_METADATA_MAX_LIMIT);
        }
        return value.intValue();
    }

    static String kindList() {
        return Kinds.CHANNEL_METADATA + ", " + Kinds.CHANNEL_ADMINS + ", " + Kinds.CHANNEL_MEMBERS;
    }
}
