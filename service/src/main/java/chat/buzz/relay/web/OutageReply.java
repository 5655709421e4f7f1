package chat.buzz.relay.web;

import chat.buzz.protocol.ErrorCodes;
import jakarta.ws.rs.core.Response;

/** How one route answers while the database is unavailable: a 503 in the shape its clients read. */
@FunctionalInterface
public interface OutageReply {
    /** The request attribute holding the body as read for authentication, when there was one. */
    String BODY_ATTRIBUTE = "chat.buzz.relay.request-body";

    Response reply(byte[] requestBody, int retryAfterSeconds);

    /** Routes without a shape of their own: {"error":"unavailable: ..."}. */
    static Response plain(int retryAfterSeconds) {
        return Refusal.bare(503, ErrorCodes.UNAVAILABLE_PREFIX + reason(retryAfterSeconds), retryAfterSeconds)
                .response();
    }

    static String reason(int retryAfterSeconds) {
        return "the database is unavailable; retry after " + retryAfterSeconds + " s";
    }
}
