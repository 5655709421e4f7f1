package chat.buzz.relay.events;

import java.util.OptionalLong;

/** An HTTP status with the contract's reply body, and when to try again if the write was rate-limited. */
public record WriteResult(int status, EventReply reply, OptionalLong retryAfterSeconds) {
    static WriteResult accepted(String eventId, String message) {
        return new WriteResult(200, new EventReply(eventId, true, message), OptionalLong.empty());
    }

    static WriteResult rejected(String eventId, WriteRejection rejection) {
        return new WriteResult(
                rejection.status(),
                new EventReply(eventId, false, rejection.getMessage()),
                rejection.retryAfterSeconds());
    }
}
