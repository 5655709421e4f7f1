package chat.buzz.protocol;

/**
 * Every event kind of the wire contract (docs/protocol.md), the one home for these numbers: Java code
 * uses the names, SQL binds them or has them formatted in, tests and tools sign with them.
 */
public final class Kinds {
    /** NIP-09 deletion: refused when aimed at an artifact (revisions are redacted with {@link #REDACTION}). */
    public static final int DELETION = 5;

    /** NIP-29 add or re-add a member ({@code p}, optional {@code role}). */
    public static final int ADD_MEMBER = 9000;
    /** NIP-29 remove a member ({@code p}). */
    public static final int REMOVE_MEMBER = 9001;
    /** NIP-29 edit a channel's settings. */
    public static final int EDIT_CHANNEL = 9002;
    /** Redact an event ({@code e}): hides an artifact revision everywhere. */
    public static final int REDACTION = 9005;
    /** NIP-29 create a channel; the caller becomes its owner. */
    public static final int CREATE_CHANNEL = 9007;
    /** NIP-29 delete a channel. */
    public static final int DELETE_CHANNEL = 9008;
    /** NIP-29 join an open channel. */
    public static final int JOIN = 9021;
    /** NIP-29 leave a channel. */
    public static final int LEAVE = 9022;

    /** NIP-42 WebSocket authentication. */
    public static final int RELAY_AUTH = 22242;
    /** NIP-98 signed HTTP authorization. */
    public static final int HTTP_AUTH = 27235;

    /** An artifact revision: a signed snapshot of an artifact. */
    public static final int ARTIFACT_REVISION = 45010;
    /** A relay-signed removal marker: an artifact left a channel (moves) or a reader's set (live sync). */
    public static final int REMOVAL_MARKER = 45011;

    /** NIP-29 relay-signed channel metadata: {@code d}, {@code name}, {@code private}, {@code closed}, {@code hidden}, {@code ttl} (4.6). */
    public static final int CHANNEL_METADATA = 39000;
    /** NIP-29 relay-signed channel admins: {@code d} and a {@code p} tag with the role for each owner and admin (4.6). */
    public static final int CHANNEL_ADMINS = 39001;
    /** NIP-29 relay-signed channel members: {@code d} and a {@code p} tag for each active member (4.6). */
    public static final int CHANNEL_MEMBERS = 39002;

    private Kinds() {}
}
