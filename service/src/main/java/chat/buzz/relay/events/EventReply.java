package chat.buzz.relay.events;

import com.fasterxml.jackson.annotation.JsonProperty;

/** PROTOCOL 3: the body of every POST /events answer. */
public record EventReply(@JsonProperty("event_id") String eventId, boolean accepted, String message) {}
