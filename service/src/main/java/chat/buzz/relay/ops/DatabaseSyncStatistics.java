package chat.buzz.relay.ops;

import com.codahale.metrics.MetricRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts in memory on the request path and adds the counts to the database every few seconds, one
 * row per community, minute and instance; the timeline sums the instances.
 */
public final class DatabaseSyncStatistics implements SyncStatistics {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseSyncStatistics.class);

    enum Kind { RESETS, CAPACITY, TIMEOUTS }

    private record Key(long communityId, Instant minute, Kind kind) {}

    private final Jdbi jdbi;
    private final String instanceId;
    private final Clock clock;
    private final MetricRegistry metrics;
    // merge and remove are atomic per key, so a count taken while a flush runs lands in the next flush.
    private final Map<Key, Long> pending = new ConcurrentHashMap<>();

    public DatabaseSyncStatistics(Jdbi jdbi, String instanceId, Clock clock, MetricRegistry metrics) {
        this.jdbi = jdbi;
        this.instanceId = instanceId;
        this.clock = clock;
        this.metrics = metrics;
    }

    public String instanceId() {
        return instanceId;
    }

    @Override
    public void resetServed(long communityId) {
        count(communityId, Kind.RESETS, "resets-served");
    }

    @Override
    public void capacityRejected(long communityId) {
        count(communityId, Kind.CAPACITY, "capacity-rejections");
    }

    @Override
    public void timedOut(long communityId) {
        count(communityId, Kind.TIMEOUTS, "timeouts");
    }

    private void count(long communityId, Kind kind, String metric) {
        Instant minute = clock.instant().truncatedTo(ChronoUnit.MINUTES);
        pending.merge(new Key(communityId, minute, kind), 1L, Long::sum);
        metrics.meter(MetricRegistry.name("ops", "sync", metric, "community-" + communityId)).mark();
    }

    public void flushEvery(ScheduledExecutorService scheduler, long millis) {
        scheduler.scheduleWithFixedDelay(() -> {
            try {
                flush();
            } catch (RuntimeException e) {
                LOG.warn("Could not write sync statistics; they stay counted in memory until the next flush", e);
            }
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Moves the counts taken so far into the database; counts that fail to write are kept for the next try. */
    public synchronized void flush() {
        for (Key key : pending.keySet()) {
            Long taken = pending.remove(key);
            if (taken == null || taken == 0) {
                continue;
            }
            long n = taken;
            try {
                jdbi.useExtension(BurstDao.class, dao -> dao.add(key.communityId(), key.minute(), instanceId,
                        key.kind() == Kind.RESETS ? n : 0, key.kind() == Kind.CAPACITY ? n : 0,
                        key.kind() == Kind.TIMEOUTS ? n : 0));
            } catch (RuntimeException e) {
                pending.merge(key, n, Long::sum);
                throw e;
            }
        }
    }
}
