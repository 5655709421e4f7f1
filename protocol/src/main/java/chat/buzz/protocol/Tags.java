package chat.buzz.protocol;

/**
 * Every tag name of the wire contract (docs/protocol.md), the one home for them: the relay reads and
 * writes tags by these names, clients and tools sign with them, SQL binds them. Section numbers are
 * those of the Buzz wire contract; each constant's wire name is in its first words.
 */
public final class Tags {
    /** {@code h}: the channel (NIP-29 group) an event belongs to; on a revision, its home channel (3.1, 3.2). */
    public static final String CHANNEL = "h";
    /** {@code d}: the artifact's id, a lowercase hyphenated UUID (3.2). */
    public static final String ARTIFACT_ID = "d";
    /** {@code ar}: always {@code 1}; marks a revision or removal marker as an artifact event (3.2, 3.3). */
    public static final String ARTIFACT_FLAG = "ar";
    /** {@code type}: the artifact's type, contains a dot, fixed for its life (3.2). */
    public static final String ARTIFACT_TYPE = "type";
    /** {@code title}: the artifact's title, absent on a delete (3.2). */
    public static final String TITLE = "title";
    /** {@code op}: what a revision does: create, update, move, delete or restore (3.2). */
    public static final String OPERATION = "op";
    /** {@code prev}: the event id of the revision this one replaces, the compare-and-set head (3.2, 3.3). */
    public static final String PREVIOUS_REVISION = "prev";
    /** {@code reason}: why a removal marker left a channel or a reader's set, e.g. {@code moved} (3.3, 5). */
    public static final String REMOVAL_REASON = "reason";

    /** {@code name}: a channel's display name (3.1, kinds 9007 and 9002). */
    public static final String CHANNEL_NAME = "name";
    /** {@code visibility}: {@code open} or {@code private} (3.1, kinds 9007 and 9002). */
    public static final String VISIBILITY = "visibility";
    /** {@code unlisted}: {@code true} leaves an open channel out of broad discovery (3.1, 4.2). */
    public static final String UNLISTED = "unlisted";
    /** {@code ttl}: seconds an ephemeral channel's artifacts live; {@code 0} clears it on an edit (3.1). */
    public static final String TTL = "ttl";
    /** {@code p}: the pubkey of the member added or removed (3.1, NIP-29 kinds 9000 and 9001). */
    public static final String MEMBER = "p";
    /** {@code role}: the added member's role, {@code admin} or {@code member} (3.1, kind 9000). */
    public static final String ROLE = "role";
    /** {@code e}: the id of the event a redaction hides (3.1 and 3.4, kind 9005). */
    public static final String REDACTED_EVENT = "e";

    /** {@code private}: no value; a private channel's metadata (4.6, NIP-29 kind 39000). */
    public static final String PRIVATE_CHANNEL = "private";
    /** {@code closed}: no value; a channel joined by invitation only, as every private one is (4.6, kind 39000). */
    public static final String CLOSED_CHANNEL = "closed";
    /** {@code hidden}: no value; a channel left out of broad listings: unlisted or private (4.6, kind 39000). */
    public static final String HIDDEN_CHANNEL = "hidden";
    /** {@code restricted}: no value; a channel only its members may write, as every private one is (4.6, kind 39000). */
    public static final String RESTRICTED_CHANNEL = "restricted";
    /** {@code about}: a channel's description, when set (3.1 kinds 9007 and 9002; 4.6 kind 39000). */
    public static final String ABOUT = "about";
    /** {@code picture}: the URL of a channel's picture, when set (3.1 kinds 9007 and 9002; 4.6 kind 39000). */
    public static final String PICTURE = "picture";
    /** {@code a}: the address {@code <kind>:<pubkey>:<d>} of an addressable event a deletion withdraws (4.6, NIP-09). */
    public static final String ADDRESS = "a";

    /** {@code u}: the absolute URL of the signed HTTP request (2.1, NIP-98). */
    public static final String URL = "u";
    /** {@code method}: the HTTP method of the signed request (2.1, NIP-98). */
    public static final String METHOD = "method";
    /** {@code payload}: lowercase hex SHA-256 of the request body (2.1, NIP-98). */
    public static final String PAYLOAD_HASH = "payload";
    /** {@code nonce}: random hex, so two identical requests in one second differ (2.1). */
    public static final String NONCE = "nonce";

    /** {@code relay}: the URL of the relay a WebSocket AUTH is for (2.2, NIP-42). */
    public static final String RELAY_URL = "relay";
    /** {@code challenge}: the challenge the relay sent in its AUTH message (2.2, NIP-42). */
    public static final String CHALLENGE = "challenge";

    /** {@code #}: starts a filter key that matches a tag, {@code #<tag name>} (NIP-01 filters, 4). */
    public static final String FILTER_PREFIX = "#";
    /** {@code #h}: filter key for channels; the scope of incremental reads and sync (4, 4.1, 5). */
    public static final String FILTER_CHANNEL = FILTER_PREFIX + CHANNEL;
    /** {@code #d}: filter key for artifact ids; a known-ID read in mode incremental (4, 4.3). */
    public static final String FILTER_ARTIFACT_ID = FILTER_PREFIX + ARTIFACT_ID;

    /** {@code #d} on a channel-metadata read: the channel ids (4.6). */
    public static final String FILTER_CHANNEL_ID = FILTER_PREFIX + ARTIFACT_ID;
    /** {@code #a}: the addresses a deletion filter asks about (4.6). */
    public static final String FILTER_ADDRESS = FILTER_PREFIX + ADDRESS;

    private Tags() {}
}
