package chat.buzz.relay.deployment;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The longest stretch a subscriber was not live, seen by looking every 20 ms from the moment it was
 * first live: what "live again within 5 s" is measured on, per reconnection rather than over a whole run.
 */
final class LiveGaps {
    private static final long LOOK_EVERY_MILLIS = 20;

    private final BooleanSupplier live;
    private final AtomicLong longestNanos = new AtomicLong();

    LiveGaps(BooleanSupplier live) {
        this.live = live;
    }

    /** Looks until {@code stop}; a gap still open then counts up to that moment. */
    Void watch(AtomicBoolean stop) throws InterruptedException {
        long notLiveSince = -1;
        while (!stop.get()) {
            long now = System.nanoTime();
            if (live.getAsBoolean()) {
                notLiveSince = -1;
            } else if (notLiveSince < 0) {
                notLiveSince = now;
            }
            if (notLiveSince >= 0) {
                longestNanos.accumulateAndGet(now - notLiveSince, Math::max);
            }
            Thread.sleep(LOOK_EVERY_MILLIS);
        }
        return null;
    }

    Duration longest() {
        return Duration.ofNanos(longestNanos.get());
    }
}
