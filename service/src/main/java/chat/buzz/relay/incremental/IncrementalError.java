package chat.buzz.relay.incremental;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.web.Refusal;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.OptionalInt;

/**
 * An error of PROTOCOL 4.5, answered as {"error": code, "message": text}; the TTL refusal adds the
 * channel it names, so a client need not read it out of the message.
 */
public final class IncrementalError extends Refusal {
    /** The TTL channel the refusal names, or null. */
    private final String channel;

    private IncrementalError(int status, String code, String message, Integer retryAfterSeconds) {
        this(status, code, message, retryAfterSeconds, null);
    }

    private IncrementalError(int status, String code, String message, Integer retryAfterSeconds, String channel) {
        super(
                status,
                code,
                message,
                retryAfterSeconds == null ? OptionalInt.empty() : OptionalInt.of(retryAfterSeconds));
        this.channel = channel;
    }

    @Override
    public Object body() {
        return channel == null ? super.body() : new TtlChannelBody(code(), getMessage(), channel);
    }

    /** {@code {"error":"incremental_ttl_channel","message":"channel <id> has a TTL; ...","channel":"<id>"}} */
    public record TtlChannelBody(
            @JsonProperty(ErrorCodes.ERROR_FIELD) String error,
            @JsonProperty(ErrorCodes.MESSAGE_FIELD) String message,
            @JsonProperty(ErrorCodes.CHANNEL_FIELD) String channel) {}

    public static IncrementalError invalidRequest(String message) {
        return new IncrementalError(400, ErrorCodes.INCREMENTAL_INVALID_REQUEST, message, null);
    }

    public static IncrementalError invalidCursor(String message) {
        return new IncrementalError(400, ErrorCodes.INCREMENTAL_INVALID_CURSOR, message, null);
    }

    public static IncrementalError cursorMismatch(String message) {
        return new IncrementalError(400, ErrorCodes.INCREMENTAL_CURSOR_MISMATCH, message, null);
    }

    public static IncrementalError scopeTooLarge(int max) {
        return new IncrementalError(
                400, ErrorCodes.INCREMENTAL_SCOPE_TOO_LARGE, "#h may name at most " + max + " channels", null);
    }

    public static IncrementalError tooManyIds(int max) {
        return new IncrementalError(
                400, ErrorCodes.INCREMENTAL_TOO_MANY_IDS, "#d may name at most " + max + " artifacts", null);
    }

    public static IncrementalError ttlChannel(String channel) {
        return new IncrementalError(
                422,
                ErrorCodes.INCREMENTAL_TTL_CHANNEL,
                "channel " + channel
                        + " has a TTL; its artifacts are never part of durable sync: drop it from the scope",
                null,
                channel);
    }

    public static IncrementalError unavailable() {
        return new IncrementalError(
                503,
                ErrorCodes.INCREMENTAL_UNAVAILABLE,
                "incremental reads are turned off; use mode \"current\"",
                null);
    }

    /** Not PROTOCOL 4.5's incremental_unavailable (gate off, use "current"): "current" is down too; retry the same request. */
    public static IncrementalError databaseUnavailable(int retryAfterSeconds) {
        return new IncrementalError(
                503,
                ErrorCodes.INCREMENTAL_DATABASE_UNAVAILABLE,
                "the database is unavailable; retry the same request after " + retryAfterSeconds + " s",
                retryAfterSeconds);
    }

    public static IncrementalError capacity(int retryAfterSeconds) {
        return new IncrementalError(
                503,
                ErrorCodes.INCREMENTAL_CAPACITY,
                "too many incremental reads right now; retry after " + retryAfterSeconds + " s",
                retryAfterSeconds);
    }

    public static IncrementalError timeout() {
        return new IncrementalError(
                503,
                ErrorCodes.INCREMENTAL_TIMEOUT,
                "the read ran out of its time budget; retry later, perhaps with a smaller limit",
                null);
    }
}
