package chat.buzz.relay.standby;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One hot standby: its pool, and its health as its own sampler thread last judged it. The sampler is the
 * only writer of {@link #health()}; a read that failed on the standby posts a request for a sample to
 * that thread rather than judging the standby itself.
 */
public final class Standby {
    private static final Logger LOG = LoggerFactory.getLogger(Standby.class);
    /** A standby that does not answer a sample in this long is taken out of routing. */
    private static final int SAMPLE_TIMEOUT_SECONDS = 2;

    private final String name;
    private final Jdbi jdbi;
    private final Duration maxLag;
    private final Supplier<OptionalLong> primaryPosition;
    private final Clock clock;
    private ScheduledExecutorService sampler;
    private volatile StandbyHealth health = StandbyHealth.STARTING;

    Standby(String name, Jdbi jdbi, Duration maxLag, Supplier<OptionalLong> primaryPosition, Clock clock) {
        this.name = name;
        this.jdbi = jdbi;
        this.maxLag = maxLag;
        this.primaryPosition = primaryPosition;
        this.clock = clock;
    }

    public String name() {
        return name;
    }

    public Duration maxLag() {
        return maxLag;
    }

    Jdbi jdbi() {
        return jdbi;
    }

    public StandbyHealth health() {
        return health;
    }

    /** Samples now and then every {@code period} on {@code thread}, which from now on owns the health. */
    void sampleEvery(ScheduledExecutorService thread, Duration period) {
        this.sampler = thread;
        thread.scheduleWithFixedDelay(this::sample, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A read found the standby failing: sample it at once, on its sampler thread. */
    void suspect() {
        ScheduledExecutorService thread = sampler;
        if (thread != null && !thread.isShutdown()) {
            thread.execute(this::sample);
        }
    }

    /** Runs on the sampler thread only. */
    void sample() {
        StandbyHealth before = health;
        StandbyHealth after;
        try {
            // The primary first: a standby that has replayed what it had written by then is not behind.
            OptionalLong primary = primaryPosition.get();
            after = judge(jdbi.withHandle(handle -> read(handle.getConnection())), primary);
        } catch (RuntimeException e) {
            after = StandbyHealth.unreachable(clock.instant(), before, "does not answer: " + rootMessage(e));
        }
        health = after;
        if (after.state() != before.state()) {
            if (after.state().serves()) {
                LOG.info("Standby {} serves reads again (lag {} ms)", name, after.lagMillis());
            } else {
                LOG.warn("Standby {} serves no reads: {}", name, after.detail());
            }
        }
    }

    private StandbyHealth judge(Sample sample, OptionalLong primary) {
        var at = clock.instant();
        if (!sample.recovering()) {
            return new StandbyHealth(
                    StandbyState.PROMOTED, null, sample.replayed(), false, at, "no longer in recovery: promoted");
        }
        Long lag = primary.isPresent() && sample.replayed() >= primary.getAsLong()
                ? Long.valueOf(0)
                : sample.behindMillis() == null ? null : Math.max(0, sample.behindMillis());
        if (lag == null) {
            return new StandbyHealth(
                    StandbyState.LAGGING,
                    null,
                    sample.replayed(),
                    sample.paused(),
                    at,
                    "has replayed no transaction since it started: its lag is unknown");
        }
        if (lag > maxLag.toMillis()) {
            return new StandbyHealth(
                    StandbyState.LAGGING,
                    lag,
                    sample.replayed(),
                    sample.paused(),
                    at,
                    "lag " + lag + " ms is over the bound of " + maxLag.toMillis() + " ms"
                            + (sample.paused() ? " (replay is paused)" : ""));
        }
        return new StandbyHealth(StandbyState.HEALTHY, lag, sample.replayed(), sample.paused(), at, "");
    }

    /** Plain JDBC rather than PlainStatements: the sample needs a query timeout of its own. */
    private static Sample read(Connection connection) {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(SAMPLE_TIMEOUT_SECONDS);
            try (ResultSet row = statement.executeQuery(StandbySql.SAMPLE)) {
                row.next();
                long behind = row.getLong("behind_millis");
                Long behindMillis = row.wasNull() ? null : behind;
                return new Sample(
                        row.getBoolean("recovering"), row.getLong("replayed"), behindMillis, row.getBoolean("paused"));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("sampling the standby failed", e);
        }
    }

    static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    private record Sample(boolean recovering, long replayed, Long behindMillis, boolean paused) {}
}
