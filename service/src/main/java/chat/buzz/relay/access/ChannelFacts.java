package chat.buzz.relay.access;

/** What access decisions need to know about a channel. */
public record ChannelFacts(java.util.UUID id, boolean open, boolean unlisted, Long ttlSeconds, boolean deleted) {}
