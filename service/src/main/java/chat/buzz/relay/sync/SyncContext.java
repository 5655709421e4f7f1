package chat.buzz.relay.sync;

import chat.buzz.relay.channelmeta.ChannelMetadataLive;
import chat.buzz.relay.database.DatabaseOutage;
import chat.buzz.relay.gate.Gates;
import java.time.Clock;

/**
 * What a connection and its subscriptions work with, built once by {@link SyncFeature}. A plain
 * record, not a locator with behaviour: each part owns its own state (the registries theirs, the
 * metrics the counters) and this only hands them round.
 */
record SyncContext(
        SyncConfig config,
        SyncStatements reads,
        RemovalEvents removals,
        Gates gates,
        Clock clock,
        DatabaseOutage outage,
        SyncWorkers workers,
        SyncMetrics metrics,
        SyncConnections connections,
        LiveSubscriptions subscriptions,
        ChannelMetadataLive channelMetadata) {}
