package chat.buzz.relay.info;

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
        @JsonProperty("supported_nips") List<Integer> supportedNips,
        List<String> capabilities,
        Limitation limitation,
        Artifacts artifacts) {

    /**
     * NIP-11's own names first; the connection caps of WebSocket sync have no NIP-11 name, so they get
     * names in its style.
     */
    public record Limitation(
            @JsonProperty("max_message_length") int maxMessageLength,
            @JsonProperty("max_event_tags") int maxEventTags,
            @JsonProperty("max_content_length") int maxContentLength,
            @JsonProperty("auth_required") boolean authRequired,
            @JsonProperty("max_subscriptions") int maxSubscriptions,
            @JsonProperty("max_connections_per_address") int maxConnectionsPerAddress,
            @JsonProperty("max_connections_per_pubkey") int maxConnectionsPerPubkey,
            @JsonProperty("max_connections") int maxConnections,
            @JsonProperty("max_unauthenticated_per_address") int maxUnauthenticatedPerAddress) {}

    public record Artifacts(
            @JsonProperty("revision_kind") int revisionKind,
            @JsonProperty("removal_kind") int removalKind,
            String query,
            List<String> modes,
            Incremental incremental) {}

    /**
     * @param policyChanges how a channel policy change reaches readers (PROTOCOL 4.4): {@code "reset"},
     *                      the community's policy stamp advances; {@code "entries"} is not built yet
     */
    public record Incremental(
            @JsonProperty("page_size") int pageSize,
            @JsonProperty("max_limit") int maxLimit,
            @JsonProperty("overlap_seconds") int overlapSeconds,
            @JsonProperty("max_ids") int maxIds,
            @JsonProperty("max_scope") int maxScope,
            @JsonProperty("policy_changes") String policyChanges) {
        /** Every channel policy change advances the policy stamp: readers re-bootstrap. */
        public static final String POLICY_CHANGES_AS_RESET = "reset";
    }
}
