package chat.buzz.relay.channelmeta;

import chat.buzz.protocol.Limits;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * PROTOCOL 4.6: the filters of one channel-metadata read, over HTTP (the body's array) or in one REQ.
 * Each is a metadata filter or a deletion filter; the answer is their union.
 */
public record MetadataRequest(List<ChannelMetadataFilter> metadata, List<DeletionFilter> deletions) {
    public MetadataRequest {
        metadata = List.copyOf(metadata);
        deletions = List.copyOf(deletions);
    }

    /** One metadata filter alone. */
    public static MetadataRequest of(ChannelMetadataFilter filter) {
        return new MetadataRequest(List.of(filter), List.of());
    }

    /**
     * @param filters the request's filters, none with an {@code artifact} key
     * @throws ChannelMetadataFilter.Invalid when one is neither a metadata nor a deletion filter, or there
     *     are none or too many
     */
    public static MetadataRequest parse(List<JsonNode> filters, String relayPubkey) {
        if (filters.isEmpty() || filters.size() > Limits.CHANNEL_METADATA_MAX_FILTERS) {
            throw new ChannelMetadataFilter.Invalid(
                    "a channel-metadata read has 1.." + Limits.CHANNEL_METADATA_MAX_FILTERS + " filters");
        }
        List<ChannelMetadataFilter> metadata = new ArrayList<>();
        List<DeletionFilter> deletions = new ArrayList<>();
        for (JsonNode filter : filters) {
            if (!filter.isObject()) {
                throw new ChannelMetadataFilter.Invalid("every filter must be a JSON object");
            }
            if (filter.has("artifact")) {
                throw new ChannelMetadataFilter.Invalid(
                        "a filter with \"artifact\" is read alone: it cannot share a request with channel-metadata filters");
            }
            if (ChannelMetadataFilter.asksForDeletions(filter)) {
                deletions.add(DeletionFilter.parse(filter, relayPubkey));
            } else {
                metadata.add(ChannelMetadataFilter.parse(filter, relayPubkey));
            }
        }
        return new MetadataRequest(metadata, deletions);
    }
}
