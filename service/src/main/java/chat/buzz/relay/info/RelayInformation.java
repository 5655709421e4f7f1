package chat.buzz.relay.info;

import chat.buzz.protocol.Nip11;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The NIP-11 document (PROTOCOL 6). {@code pubkey} and {@code self} both name the relay's own key, the one
 * that signs removal markers and channel metadata: NIP-29 clients look for the group events' author in
 * {@code pubkey}, newer NIP-11 readers in {@code self}.
 */
public record RelayInformation(
        String name,
        String description,
        String pubkey,
        String self,
        String software,
        String version,
        @JsonProperty(Nip11.SUPPORTED_NIPS) List<Integer> supportedNips,
        @JsonProperty(Nip11.CAPABILITIES) List<String> capabilities,
        @JsonProperty(Nip11.LIMITATION) Limitation limitation,
        @JsonProperty(Nip11.ARTIFACTS) Artifacts artifacts) {

    /**
     * NIP-11's own names first; the connection caps of WebSocket sync have no NIP-11 name, so they get
     * names in its style.
     */
    public record Limitation(
            @JsonProperty(Nip11.MAX_MESSAGE_LENGTH) int maxMessageLength,
            @JsonProperty(Nip11.MAX_EVENT_TAGS) int maxEventTags,
            @JsonProperty(Nip11.MAX_CONTENT_LENGTH) int maxContentLength,
            @JsonProperty(Nip11.AUTH_REQUIRED) boolean authRequired,
            @JsonProperty(Nip11.MAX_SUBSCRIPTIONS) int maxSubscriptions,
            @JsonProperty(Nip11.MAX_CONNECTIONS_PER_ADDRESS) int maxConnectionsPerAddress,
            @JsonProperty(Nip11.MAX_CONNECTIONS_PER_PUBKEY) int maxConnectionsPerPubkey,
            @JsonProperty(Nip11.MAX_CONNECTIONS) int maxConnections,

            @JsonProperty(Nip11.MAX_UNAUTHENTICATED_PER_ADDRESS)
            int maxUnauthenticatedPerAddress) {}

    public record Artifacts(
            @JsonProperty(Nip11.REVISION_KIND) int revisionKind,
            @JsonProperty(Nip11.REMOVAL_KIND) int removalKind,
            String query,
            List<String> modes,
            @JsonProperty(Nip11.INCREMENTAL) Incremental incremental) {}

    /**
     * @param policyChanges how a channel policy change reaches readers (PROTOCOL 4.4): {@code "reset"},
     *                      the community's policy stamp advances; {@code "entries"}, the change arrives as
     *                      entries of each reader's next delta (gate {@code SCOPED_POLICY} on)
     */
    public record Incremental(
            @JsonProperty(Nip11.PAGE_SIZE) int pageSize,
            @JsonProperty(Nip11.MAX_LIMIT) int maxLimit,
            @JsonProperty(Nip11.OVERLAP_SECONDS) int overlapSeconds,
            @JsonProperty(Nip11.MAX_IDS) int maxIds,
            @JsonProperty(Nip11.MAX_SCOPE) int maxScope,
            @JsonProperty(Nip11.POLICY_CHANGES) String policyChanges) {}
}
