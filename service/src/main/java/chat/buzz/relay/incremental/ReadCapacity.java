package chat.buzz.relay.incremental;

import chat.buzz.relay.capacity.ReadBulkhead;
import com.codahale.metrics.MetricRegistry;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Caps concurrent incremental reads per process, and the share one pubkey may hold, so a single caller
 * cannot keep every permit busy. A refusal's Retry-After is drawn at random from a range, so that clients
 * sent away together by a community-wide reset come back spread out.
 */
public final class ReadCapacity {
    private final ReadBulkhead bulkhead;

    public ReadCapacity(IncrementalConfig config, MetricRegistry metrics) {
        this.bulkhead = config.bulkhead("incremental-reads", metrics);
    }

    /** Runs {@code read} holding a permit; empty when the caller holds its share or none was free in time. */
    public <T> Optional<T> withPermit(String caller, Supplier<T> read) {
        return bulkhead.withPermit(caller, read);
    }

    public int permitsInUse() {
        return bulkhead.permitsInUse();
    }

    public int retryAfterSeconds() {
        return bulkhead.retryAfterSeconds();
    }
}
