package chat.buzz.relay.query;

import chat.buzz.relay.web.ErrorBody;
import chat.buzz.relay.web.OutageReply;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

/** A "current" read turned away for now: 503 {"error":"unavailable: ..."} with a Retry-After. */
public final class CurrentUnavailable extends WebApplicationException {
    private CurrentUnavailable(String reason, int retryAfterSeconds) {
        super(Response.fromResponse(ErrorBody.response(503, "unavailable: " + reason))
                .header("Retry-After", retryAfterSeconds)
                .build());
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

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // an expected answer under load, not a bug: no stack trace to pay for
    }
}
