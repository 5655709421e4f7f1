package chat.buzz.relay.community;

/** A tenant, selected by the request's Host header. */
public record Community(long id, String name) {}
