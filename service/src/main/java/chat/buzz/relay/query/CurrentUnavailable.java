package chat.buzz.relay.query;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.web.OutageReply;
import chat.buzz.relay.web.Refusal;
import java.util.OptionalInt;

/** A "current" read turned away for now: 503 {"error":"unavailable: ..."} with a Retry-After. */
public final class CurrentUnavailable extends Refusal {
    private CurrentUnavailable(String reason, int retryAfterSeconds) {
        super(503, ErrorCodes.UNAVAILABLE_PREFIX + reason, null, OptionalInt.of(retryAfterSeconds));
    }

    public static CurrentUnavailable capacity(int retryAfterSeconds) {
        return new CurrentUnavailable(
                "too many current reads right now; retry after " + retryAfterSeconds + " s", retryAfterSeconds);
    }

    public static CurrentUnavailable database(int retryAfterSeconds) {
        return new CurrentUnavailable(OutageReply.reason(retryAfterSeconds), retryAfterSeconds);
    }

    public static CurrentUnavailable timeout(int retryAfterSeconds) {
        return new CurrentUnavailable(
                "the read ran out of its time budget; retry after " + retryAfterSeconds
                        + " s, perhaps with a narrower filter or a smaller limit",
                retryAfterSeconds);
    }
}
