package chat.buzz.relay.info;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The NIP-11 document (PROTOCOL 6). */
public record RelayInformation(
        String name,
        String description,
        String pubkey,
        String software,
        String version,
        @JsonProperty("supported_nips") List<Integer> supportedNips,
        List<String> capabilities,
        Limitation limitation,
        Artifacts artifacts) {

    public record Limitation(
            @JsonProperty("max_message_length") int maxMessageLength,
            @JsonProperty("max_event_tags") int maxEventTags,
            @JsonProperty("max_content_length") int maxContentLength,
            @JsonProperty("auth_required") boolean authRequired) {}

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
