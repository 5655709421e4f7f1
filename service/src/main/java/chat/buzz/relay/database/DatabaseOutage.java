package chat.buzz.relay.database;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this instance currently finds the database unreachable. A failing request reports here and
 * gets a Retry-After; the log gets one line when an outage starts and one when it ends, however many
 * requests were turned away in between.
 */
public final class DatabaseOutage implements HandleListener {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseOutage.class);
    static final int MIN_RETRY_AFTER_SECONDS = 2;
    static final int MAX_RETRY_AFTER_SECONDS = 6;

    private final Clock clock;
    private final AtomicReference<Instant> since = new AtomicReference<>();
    private final AtomicLong turnedAway = new AtomicLong();

    public DatabaseOutage(Clock clock) {
        this.clock = clock;
    }

    /** Records a failure that {@link DatabaseFaults#isUnreachable} recognised; returns the Retry-After to send. */
    public int turnedAway(Throwable cause) {
        turnedAway.incrementAndGet();
        if (since.compareAndSet(null, clock.instant())) {
            LOG.warn("Database unreachable ({}); answering 503 with Retry-After until it is back", describe(cause));
        }
        return retryAfterSeconds();
    }

    public boolean isOngoing() {
        return since.get() != null;
    }

    /** Jittered, so clients turned away together do not all come back in the same second. */
    public static int retryAfterSeconds() {
        return ThreadLocalRandom.current().nextInt(MIN_RETRY_AFTER_SECONDS, MAX_RETRY_AFTER_SECONDS + 1);
    }

    /** A pooled connection may be a stale one from before the outage: only a live round trip ends it. */
    @Override
    public void handleCreated(Handle handle) {
        if (since.get() == null) {
            return;
        }
        try {
            if (!handle.getConnection().isValid(1)) {
                return;
            }
        } catch (SQLException e) {
            return;
        }
        Instant started = since.getAndSet(null);
        if (started != null) {
            LOG.info(
                    "Database reachable again after {} s; {} requests were answered 503 meanwhile",
                    Duration.between(started, clock.instant()).toSeconds(),
                    turnedAway.getAndSet(0));
        }
    }

    private static String describe(Throwable cause) {
        Throwable deepest = cause;
        while (deepest.getCause() != null && deepest.getCause() != deepest) {
            deepest = deepest.getCause();
        }
        return deepest.getClass().getSimpleName() + ": " + deepest.getMessage();
    }
}
