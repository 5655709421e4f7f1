package chat.buzz.protocol;

/**
 * The error vocabulary of the wire contract (docs/protocol.md), the one home for it: the relay sends
 * these, clients branch on them. Codes are whole {@code error} values; prefixes start a text that goes
 * on with a human reason ({@code "invalid: ..."}), in an HTTP error body, an {@code OK} or a
 * {@code CLOSED} message.
 */
public final class ErrorCodes {
    // The fields of an HTTP error body: {"error": code, "message": text}, and more where a code says so.
    /** The code, or the contract's whole prefixed text where the route has no separate message. */
    public static final String ERROR_FIELD = "error";
    /** The human reason; routes whose error is the whole text leave it out. */
    public static final String MESSAGE_FIELD = "message";
    /** With {@link #INCREMENTAL_TTL_CHANNEL}: the TTL channel's id, which the message names as well. */
    public static final String CHANNEL_FIELD = "channel";

    // Section 2: authentication and tenancy.
    /** 401: a request that needs a signed Authorization header came without one. */
    public static final String MISSING_AUTH = "missing Nostr auth";
    /** 401: starts every failed NIP-98 check; the rest is the reason. */
    public static final String NIP98_PREFIX = "NIP-98: ";
    /** The NIP-98 reason for an auth event the relay has seen before. */
    public static final String NIP98_REPLAY = NIP98_PREFIX + "replay detected";
    /** 404: no community is served at the request's Host. */
    public static final String UNKNOWN_COMMUNITY = "unknown community";

    // Section 3: write replies and /query refusals, NIP-01 style prefixes.
    public static final String INVALID_PREFIX = "invalid: ";
    public static final String BLOCKED_PREFIX = "blocked: ";
    public static final String CONFLICT_PREFIX = "conflict: ";
    public static final String RATE_LIMITED_PREFIX = "rate-limited: ";
    /** An accepted exact resubmission. */
    public static final String DUPLICATE_PREFIX = "duplicate: ";
    /**
     * WebSocket NOTICE before close 1001: this instance is stopping (a restart, an upgrade); connect again
     * at once, which the proxy sends to another instance.
     */
    public static final String RESTARTING_PREFIX = "restarting: ";
    /** 503: the relay cannot serve this now (its database is unreachable); retry later. */
    public static final String UNAVAILABLE_PREFIX = "unavailable: ";

    // Section 4.5: incremental reads.
    public static final String INCREMENTAL_INVALID_REQUEST = "incremental_invalid_request";
    public static final String INCREMENTAL_INVALID_CURSOR = "incremental_invalid_cursor";
    public static final String INCREMENTAL_CURSOR_MISMATCH = "incremental_cursor_mismatch";
    public static final String INCREMENTAL_SCOPE_TOO_LARGE = "incremental_scope_too_large";
    public static final String INCREMENTAL_TOO_MANY_IDS = "incremental_too_many_ids";
    /** 422: {@code #h} names a TTL channel; the message names it, and so does {@link #CHANNEL_FIELD}. */
    public static final String INCREMENTAL_TTL_CHANNEL = "incremental_ttl_channel";
    /** 503: the incremental gate is off; read mode "current" instead. */
    public static final String INCREMENTAL_UNAVAILABLE = "incremental_unavailable";
    /** 503 with Retry-After: the read bulkhead is full. */
    public static final String INCREMENTAL_CAPACITY = "incremental_capacity";
    /** 503: the statement budget ran out. */
    public static final String INCREMENTAL_TIMEOUT = "incremental_timeout";
    /**
     * 503 with Retry-After: the database is unreachable, so mode "current" is down too. Not in the
     * table of 4.5 (whose {@code incremental_unavailable} means "use current"); the same request may
     * succeed later.
     */
    public static final String INCREMENTAL_DATABASE_UNAVAILABLE = "incremental_database_unavailable";

    // Section 5: CLOSED reasons of WebSocket sync, each followed by ": " and a human text.
    /** The relay ended the subscription (the policy changed, or it fell behind): subscribe again. */
    public static final String SYNC_RESET = "sync_reset";
    /** The sync gate is off. */
    public static final String SYNC_UNAVAILABLE = "sync_unavailable";

    public static final String SYNC_RESET_PREFIX = SYNC_RESET + ": ";
    /** The whole text PROTOCOL 5 gives for a subscription ended because the policy stamp advanced. */
    public static final String SYNC_RESET_POLICY_CHANGED = SYNC_RESET_PREFIX + "policy changed";

    public static final String SYNC_UNAVAILABLE_PREFIX = SYNC_UNAVAILABLE + ": ";
    /** A sync REQ that arrives while the gate is off. */
    public static final String SYNC_UNAVAILABLE_AT_REQUEST =
            SYNC_UNAVAILABLE_PREFIX + "WebSocket sync is turned off on this relay";
    /** A live sync subscription ended because an operator turned the gate off after it began. */
    public static final String SYNC_UNAVAILABLE_TURNED_OFF = SYNC_UNAVAILABLE_PREFIX + "WebSocket sync was turned off";

    // Sections 2.2 and 5: the other prefixes of WebSocket OK, CLOSED and NOTICE messages (docs/protocol.md
    // lists what each means); invalid:, blocked:, rate-limited: and restarting: are the ones above.
    /** A REQ before a successful AUTH, a refused AUTH, or no AUTH within the time allowed. */
    public static final String AUTH_REQUIRED_PREFIX = "auth-required: ";
    /** The relay failed to serve a subscription (time budget, database): subscribe again with backoff. */
    public static final String ERROR_PREFIX = "error: ";
    /** A client EVENT: writes are signed HTTP only. */
    public static final String UNSUPPORTED_PREFIX = "unsupported: ";
    /** The connection's outgoing queue overflowed; the relay closes it. */
    public static final String TOO_SLOW_PREFIX = "too slow: ";
    /** No message or pong within the idle timeout; the relay closes the connection. */
    public static final String IDLE_PREFIX = "idle: ";

    private ErrorCodes() {}
}
