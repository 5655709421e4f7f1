package chat.buzz.relay.incremental;

import chat.buzz.relay.fleet.Fleet;
import chat.buzz.relay.gate.Gates;
import chat.buzz.relay.identity.RelayIdentity;
import com.codahale.metrics.MetricRegistry;
import java.nio.charset.StandardCharsets;
import org.jdbi.v3.core.Jdbi;

/** Incremental reads ({@code POST /query}, mode incremental), behind their gate and their bulkhead. */
public final class IncrementalFeature {
    private IncrementalFeature() {}

    /** Cursors are signed with the configured secret, else with one derived from the relay key. */
    public static IncrementalReads reads(
            IncrementalConfig config,
            Jdbi jdbi,
            Gates gates,
            RelayIdentity identity,
            SyncStatistics statistics,
            MetricRegistry metrics) {
        byte[] secret = config.getCursorSecret().isEmpty()
                ? CursorCodec.deriveSecret(identity.keys().secretKey())
                : config.getCursorSecret().getBytes(StandardCharsets.UTF_8);
        ReadCapacity capacity = new ReadCapacity(config);
        metrics.gauge(Fleet.PERMITS_IN_USE, () -> capacity::permitsInUse);
        return new IncrementalReads(jdbi, gates, new CursorCodec(secret), capacity, statistics, config);
    }
}
