package chat.buzz.relay.events;

/** An HTTP status with the contract's reply body. */
public record WriteResult(int status, EventReply reply) {
    static WriteResult accepted(String eventId, String message) {
        return new WriteResult(200, new EventReply(eventId, true, message));
    }

    static WriteResult rejected(String eventId, WriteRejection rejection) {
        return new WriteResult(rejection.status(), new EventReply(eventId, false, rejection.getMessage()));
    }
}
