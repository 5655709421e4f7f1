package chat.buzz.relay.incremental;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.internal.SemaphoreBulkhead;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Caps concurrent incremental reads per process. A full bulkhead answers with a Retry-After drawn at
 * random from a range, so that clients sent away together by a community-wide reset come back spread out.
 */
public final class ReadCapacity {
    private final Bulkhead bulkhead;
    private final int retryAfterMin;
    private final int retryAfterMax;

    public ReadCapacity(IncrementalConfig config) {
        this.bulkhead = new SemaphoreBulkhead("incremental-reads", BulkheadConfig.custom()
                .maxConcurrentCalls(config.getMaxConcurrentReads())
                .maxWaitDuration(Duration.ofMillis(config.getMaxWaitMillis()))
                .build());
        this.retryAfterMin = config.getRetryAfterMinSeconds();
        this.retryAfterMax = config.getRetryAfterMaxSeconds();
    }

    /** Runs {@code read} holding a permit; empty when none was free within the configured wait. */
    public <T> Optional<T> withPermit(Supplier<T> read) {
        if (!bulkhead.tryAcquirePermission()) {
            return Optional.empty();
        }
        try {
            return Optional.of(read.get());
        } finally {
            bulkhead.onComplete();
        }
    }

    public int retryAfterSeconds() {
        return ThreadLocalRandom.current().nextInt(retryAfterMin, retryAfterMax + 1);
    }
}
