package chat.buzz.relay.channelmeta;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.events.TagReader;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * PROTOCOL 4.6: a deletion filter, {@code {"kinds":[5]}} with optional {@code authors}, {@code #a},
 * {@code since} and {@code limit}, beside the metadata filters of one read. It matches the relay-signed
 * kind-5 that withdraws a channel from the reader's view. The relay keeps no such deletions (each is
 * made for one subscriber at the moment its view changes), so it adds nothing to the stored part of a
 * read; live, it makes the subscription watch the channels it names (or, without {@code #a}, every
 * channel the reader would discover) and hear when one leaves the reader's view.
 *
 * @param addresses the {@code #a} values; empty when the filter names none
 * @param relayIsAnAuthor false when {@code authors} leaves the relay out: then nothing matches
 * @param since the oldest {@code created_at} wanted (inclusive)
 */
public record DeletionFilter(Set<String> addresses, boolean relayIsAnAuthor, long since) {
    private static final int MAX_ADDRESS_CHARACTERS = 256;

    public DeletionFilter {
        addresses = Set.copyOf(addresses);
    }

    /** @throws ChannelMetadataFilter.Invalid when the filter is not a deletion filter */
    static DeletionFilter parse(JsonNode filter, String relayPubkey) {
        Set<String> addresses = Set.of();
        boolean relayIsAnAuthor = true;
        long since = 0;
        for (Iterator<Map.Entry<String, JsonNode>> fields = filter.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case "kinds" -> {
                    // ChannelMetadataFilter.asksForDeletions chose this parser: kinds holds only 5.
                }
                case "authors" ->
                    relayIsAnAuthor = ChannelMetadataFilter.authors(value).contains(relayPubkey);
                case Tags.FILTER_ADDRESS -> addresses = addresses(value);
                case "since" -> since = ChannelMetadataFilter.timestamp("since", value);
                case "limit" -> ChannelMetadataFilter.limit(value);
                default ->
                    throw new ChannelMetadataFilter.Invalid("a deletion filter (kinds [" + Kinds.DELETION
                            + "]) takes only kinds, authors, " + Tags.FILTER_ADDRESS + ", since and limit; not "
                            + field.getKey());
            }
        }
        return new DeletionFilter(addresses, relayIsAnAuthor, since);
    }

    /**
     * What the filter watches, as a metadata filter whose events are never sent: the channels its
     * {@code #a} names with the kinds named for each, or every channel the reader would discover;
     * empty when no withdrawal could match it.
     */
    Optional<ChannelMetadataFilter> watched(String relayPubkey) {
        if (!relayIsAnAuthor) {
            return Optional.empty();
        }
        if (addresses.isEmpty()) {
            return Optional.of(new ChannelMetadataFilter(
                    ChannelMetadataFilter.KINDS,
                    List.of(),
                    true,
                    0,
                    Long.MAX_VALUE,
                    Limits.CHANNEL_METADATA_MAX_LIMIT));
        }
        Set<Integer> kinds = new TreeSet<>();
        Set<UUID> channels = new LinkedHashSet<>();
        for (String address : addresses) {
            String[] parts = address.split(":", 3);
            if (parts.length == 3
                    && parts[1].equals(relayPubkey)
                    && TagReader.isCanonicalUuid(parts[2])
                    && ChannelMetadataFilter.KINDS.stream().anyMatch(kind -> parts[0].equals(Integer.toString(kind)))) {
                kinds.add(Integer.parseInt(parts[0]));
                channels.add(UUID.fromString(parts[2]));
            }
        }
        if (channels.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ChannelMetadataFilter(
                kinds, List.copyOf(channels), true, 0, Long.MAX_VALUE, Limits.CHANNEL_METADATA_MAX_LIMIT));
    }

    private static Set<String> addresses(JsonNode value) {
        if (!value.isArray() || value.isEmpty() || value.size() > Limits.CHANNEL_METADATA_MAX_IDS) {
            throw new ChannelMetadataFilter.Invalid(
                    Tags.FILTER_ADDRESS + " must be an array of 1.." + Limits.CHANNEL_METADATA_MAX_IDS + " addresses");
        }
        Set<String> addresses = new TreeSet<>();
        for (JsonNode address : value) {
            if (!address.isTextual()
                    || address.textValue().isEmpty()
                    || address.textValue().length() > MAX_ADDRESS_CHARACTERS) {
                throw new ChannelMetadataFilter.Invalid(Tags.FILTER_ADDRESS
                        + " values must be addresses <kind>:<pubkey>:<channel id> of 1.." + MAX_ADDRESS_CHARACTERS
                        + " characters");
            }
            addresses.add(address.textValue());
        }
        return addresses;
    }
}
