package chat.buzz.relay.incremental;

import chat.buzz.relay.database.ReadNodes;
import chat.buzz.relay.fleet.Fleet;
import chat.buzz.relay.gate.Gates;
import chat.buzz.relay.identity.RelayIdentity;
import com.codahale.metrics.MetricRegistry;
import java.nio.charset.StandardCharsets;

/** Incremental reads ({@code POST /query}, mode incremental), behind their gate and their bulkhead. */
public final class IncrementalFeature {
    private IncrementalFeature() {}

    /**
     * Cursors are sealed with the configured secret, else with one derived from the relay key; the
     * previous secret, when set, still opens the cursors it sealed.
     */
    public static CursorCodec cursors(IncrementalConfig config, byte[] relaySecretKey) {
        byte[] secret = config.getCursorSecret().isEmpty()
                ? CursorCodec.deriveSecret(relaySecretKey)
                : config.getCursorSecret().getBytes(StandardCharsets.UTF_8);
        return new CursorCodec(secret, config.getPreviousCursorSecret().getBytes(StandardCharsets.UTF_8));
    }

    public static IncrementalReads reads(
            IncrementalConfig config,
            ReadNodes nodes,
            Gates gates,
            RelayIdentity identity,
            IncrementalReadStatistics statistics,
            MetricRegistry metrics) {
        ReadCapacity capacity = new ReadCapacity(config, metrics);
        metrics.gauge(Fleet.PERMITS_IN_USE, () -> capacity::permitsInUse);
        return new IncrementalReads(
                nodes, gates, cursors(config, identity.keys().secretKey()), capacity, statistics, config);
    }
}
