package chat.buzz.relay.fleet;

import java.time.Instant;

/** What one instance served between two heartbeats: the points of its sparklines. */
public record TrafficSample(Instant at, long requests, long unavailable, long resets) {}
