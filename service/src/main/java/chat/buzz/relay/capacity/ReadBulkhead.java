package chat.buzz.relay.capacity;

import com.codahale.metrics.Counter;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.internal.SemaphoreBulkhead;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Caps concurrent reads of one kind per process, and the share of them one caller may hold, so that a
 * single pubkey cannot keep every permit busy. A refusal comes with a Retry-After drawn at random from a
 * range, so that clients sent away together come back spread out.
 */
public final class ReadBulkhead {
    private final Bulkhead bulkhead;
    private final int perCaller;
    private final int retryAfterMin;
    private final int retryAfterMax;
    private final ConcurrentHashMap<String, Integer> readsInFlight = new ConcurrentHashMap<>();
    private final Counter refusals;

    /** @param perCaller permits one caller may hold at once; more than {@code maxConcurrent} means no share */
    public ReadBulkhead(
            String name,
            int maxConcurrent,
            long maxWaitMillis,
            int perCaller,
            int retryAfterMinSeconds,
            int retryAfterMaxSeconds,
            Counter refusals) {
        this.refusals = refusals;
        this.bulkhead = new SemaphoreBulkhead(
                name,
                BulkheadConfig.custom()
                        .maxConcurrentCalls(maxConcurrent)
                        .maxWaitDuration(Duration.ofMillis(maxWaitMillis))
                        .build());
        this.perCaller = perCaller;
        this.retryAfterMin = retryAfterMinSeconds;
        this.retryAfterMax = retryAfterMaxSeconds;
    }

    /**
     * Runs {@code read} holding a permit; empty when {@code caller} already holds its share, or when no
     * permit was free within the configured wait.
     */
    public <T> Optional<T> withPermit(String caller, Supplier<T> read) {
        if (!enter(caller)) {
            refusals.inc();
            return Optional.empty();
        }
        try {
            if (!bulkhead.tryAcquirePermission()) {
                refusals.inc();
                return Optional.empty();
            }
            try {
                return Optional.of(read.get());
            } finally {
                bulkhead.onComplete();
            }
        } finally {
            leave(caller);
        }
    }

    /** Permits held right now, for the fleet view. */
    public int permitsInUse() {
        Bulkhead.Metrics metrics = bulkhead.getMetrics();
        return metrics.getMaxAllowedConcurrentCalls() - metrics.getAvailableConcurrentCalls();
    }

    public int retryAfterSeconds() {
        return ThreadLocalRandom.current().nextInt(retryAfterMin, retryAfterMax + 1);
    }

    private boolean enter(String caller) {
        boolean[] admitted = {false};
        readsInFlight.compute(caller, (key, reads) -> {
            int held = reads == null ? 0 : reads;
            if (held >= perCaller) {
                return reads;
            }
            admitted[0] = true;
            return held + 1;
        });
        return admitted[0];
    }

    /** Drops a caller's entry at zero, so the map holds only callers with reads in flight. */
    private void leave(String caller) {
        readsInFlight.computeIfPresent(caller, (key, reads) -> reads == 1 ? null : reads - 1);
    }
}
