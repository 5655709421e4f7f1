package chat.buzz.relay.fleet;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one instance says about itself in each heartbeat (GET /api/instances adds staleness). lastSeen
 * is the database's clock when the heartbeat was stored: null in the report an instance writes.
 * {@code poolActive} is the connections in use, {@code poolSize} the most the pool may open
 * (database.maxSize), so the console shows used / maximum.
 */
public record InstanceReport(
        String instanceId,
        String host,
        String version,
        String build,
        Instant startedAt,
        Instant lastSeen,
        Instant flagsReadAt,
        Map<String, Boolean> gates,
        boolean changeFeedConnected,
        int poolActive,
        int poolSize,
        int websocketConnections,
        int websocketSubscriptions,
        int incrementalPermitsUsed,
        List<TrafficSample> traffic) {}
