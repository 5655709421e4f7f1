package chat.buzz.protocol;

/**
 * The names of the information document (NIP-11, PROTOCOL 6) that the relay writes and clients read:
 * field names, capability names and the values of {@code policy_changes}.
 */
public final class Nip11 {
    public static final String SUPPORTED_NIPS = "supported_nips";
    public static final String CAPABILITIES = "capabilities";
    public static final String LIMITATION = "limitation";
    public static final String ARTIFACTS = "artifacts";

    /** Capabilities, each listed only while its gate is on (PROTOCOL 7). */
    public static final String CAPABILITY_INCREMENTAL = "artifacts.incremental";

    public static final String CAPABILITY_SYNC = "artifacts.sync";

    /** Fields of {@code limitation}: NIP-11's own names, then the sync connection caps in its style. */
    public static final String MAX_MESSAGE_LENGTH = "max_message_length";

    public static final String MAX_EVENT_TAGS = "max_event_tags";
    public static final String MAX_CONTENT_LENGTH = "max_content_length";
    public static final String AUTH_REQUIRED = "auth_required";
    public static final String MAX_SUBSCRIPTIONS = "max_subscriptions";
    public static final String MAX_CONNECTIONS_PER_ADDRESS = "max_connections_per_address";
    public static final String MAX_CONNECTIONS_PER_PUBKEY = "max_connections_per_pubkey";
    public static final String MAX_CONNECTIONS = "max_connections";
    public static final String MAX_UNAUTHENTICATED_PER_ADDRESS = "max_unauthenticated_per_address";

    /** Fields of {@code artifacts}. */
    public static final String REVISION_KIND = "revision_kind";

    public static final String REMOVAL_KIND = "removal_kind";
    public static final String INCREMENTAL = "incremental";

    /** Fields of {@code artifacts.incremental}. */
    public static final String PAGE_SIZE = "page_size";

    public static final String MAX_LIMIT = "max_limit";
    public static final String OVERLAP_SECONDS = "overlap_seconds";
    public static final String MAX_IDS = "max_ids";
    public static final String MAX_SCOPE = "max_scope";
    public static final String POLICY_CHANGES = "policy_changes";

    /** {@code policy_changes}: a channel policy change advances the community's policy stamp; readers re-bootstrap. */
    public static final String POLICY_CHANGES_RESET = "reset";
    /** {@code policy_changes}: a channel policy change arrives as entries of the next delta (4.4). */
    public static final String POLICY_CHANGES_ENTRIES = "entries";

    private Nip11() {}
}
