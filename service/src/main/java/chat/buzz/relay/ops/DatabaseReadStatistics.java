package chat.buzz.relay.ops;

import chat.buzz.relay.changes.PolicyChangeEntriesSent;
import chat.buzz.relay.channel.PolicyChangeRefusals;
import chat.buzz.relay.database.BackgroundFailures;
import chat.buzz.relay.incremental.IncrementalReadStatistics;
import com.codahale.metrics.MetricRegistry;
import java.sql.SQLException;
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
 * row per community, minute and instance; the timeline sums the instances. Refused policy changes are
 * counted here too: the refused write's transaction rolls back, so it cannot record them itself. So are
 * the entries sent for a policy change delivered as entries, per change: readers write nothing.
 */
public final class DatabaseReadStatistics
        implements IncrementalReadStatistics, PolicyChangeRefusals, PolicyChangeEntriesSent {
    private static final String UNDEFINED_TABLE = "42P01";

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseReadStatistics.class);

    enum Kind {
        RESETS,
        CAPACITY,
        TIMEOUTS,
        REFUSED_POLICY_CHANGES
    }

    private record Key(long communityId, Instant minute, Kind kind) {}

    /** A policy change delivered as entries, known by its history row or, to an incremental page, by its moment. */
    private record ChangeKey(long communityId, long changedMicros, long settingsId) {}

    private final Jdbi jdbi;
    private final String instanceId;
    private final Clock clock;
    private final MetricRegistry metrics;
    // merge and remove are atomic per key, so a count taken while a flush runs lands in the next flush.
    private final Map<Key, Long> pending = new ConcurrentHashMap<>();
    private final Map<ChangeKey, Long> entriesSent = new ConcurrentHashMap<>();

    public DatabaseReadStatistics(Jdbi jdbi, String instanceId, Clock clock, MetricRegistry metrics) {
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

    @Override
    public void policyChangeRefused(long communityId) {
        count(communityId, Kind.REFUSED_POLICY_CHANGES, "policy-changes-refused");
    }

    @Override
    public void policyChangeEntriesSent(long communityId, long changedMicros, long entries) {
        countEntries(new ChangeKey(communityId, changedMicros, 0), entries);
    }

    @Override
    public void sentFor(long communityId, long settingsChange, long entries) {
        countEntries(new ChangeKey(communityId, 0, settingsChange), entries);
    }

    private void countEntries(ChangeKey key, long entries) {
        if (entries <= 0) {
            return;
        }
        entriesSent.merge(key, entries, Long::sum);
        metrics.meter(MetricRegistry.name(
                        "ops", "sync", "policy-change-entries-sent", "community-" + key.communityId()))
                .mark(entries);
    }

    private void count(long communityId, Kind kind, String metric) {
        Instant minute = clock.instant().truncatedTo(ChronoUnit.MINUTES);
        pending.merge(new Key(communityId, minute, kind), 1L, Long::sum);
        metrics.meter(MetricRegistry.name("ops", "sync", metric, "community-" + communityId))
                .mark();
    }

    public void flushEvery(ScheduledExecutorService scheduler, long millis) {
        BackgroundFailures failures = new BackgroundFailures(
                LOG, "Could not write sync statistics; they stay counted in memory until the next flush");
        scheduler.scheduleWithFixedDelay(
                () -> {
                    try {
                        flush();
                        failures.succeeded();
                    } catch (RuntimeException e) {
                        failures.failed(e);
                    }
                },
                millis,
                millis,
                TimeUnit.MILLISECONDS);
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
                jdbi.useExtension(BurstDao.class, dao -> write(dao, key, n));
            } catch (RuntimeException e) {
                if (key.kind() == Kind.REFUSED_POLICY_CHANGES && isUndefinedTable(e)) {
                    // Rolled back to before-incremental (migration 0091 undone): nowhere to keep them, and
                    // holding them would only grow memory; the meter still counted them.
                    LOG.warn(
                            "Dropped {} refused policy changes of community {}: table policy_change_refusals is missing",
                            n,
                            key.communityId());
                    continue;
                }
                pending.merge(key, n, Long::sum);
                throw e;
            }
        }
        for (ChangeKey key : entriesSent.keySet()) {
            Long taken = entriesSent.remove(key);
            if (taken == null || taken == 0) {
                continue;
            }
            long n = taken;
            try {
                jdbi.useExtension(BurstDao.class, dao -> writeEntries(dao, key, n));
            } catch (RuntimeException e) {
                if (isUndefinedTable(e)) {
                    // Migration 0191 not applied, or rolled back to before-incremental: the meter counted them.
                    LOG.warn(
                            "Dropped a count of {} entries sent for a policy change: table policy_change_entries_sent is missing",
                            n);
                    continue;
                }
                entriesSent.merge(key, n, Long::sum);
                throw e;
            }
        }
    }

    private void writeEntries(BurstDao dao, ChangeKey key, long n) {
        if (key.settingsId() != 0) {
            dao.addEntriesSent(key.settingsId(), instanceId, n);
        } else {
            dao.addEntriesSentAt(key.communityId(), key.changedMicros(), instanceId, n);
        }
    }

    private void write(BurstDao dao, Key key, long n) {
        if (key.kind() == Kind.REFUSED_POLICY_CHANGES) {
            dao.addRefusals(key.communityId(), key.minute(), instanceId, n);
        } else {
            dao.add(
                    key.communityId(),
                    key.minute(),
                    instanceId,
                    key.kind() == Kind.RESETS ? n : 0,
                    key.kind() == Kind.CAPACITY ? n : 0,
                    key.kind() == Kind.TIMEOUTS ? n : 0);
        }
    }

    private static boolean isUndefinedTable(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && UNDEFINED_TABLE.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
