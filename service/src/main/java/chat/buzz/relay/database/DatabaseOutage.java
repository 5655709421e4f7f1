package chat.buzz.relay.database;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this instance currently finds the database unable to serve it. A request turned away for a
 * {@link DatabaseFault} reports here and gets a Retry-After. The log gets one line when an outage starts
 * (and one more for each other kind of fault seen during it), then one when work that used the database
 * succeeds again, with how long it lasted and how many requests were answered 503: never a line per
 * request.
 */
public final class DatabaseOutage implements HandleListener {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseOutage.class);
    static final int MIN_RETRY_AFTER_SECONDS = 2;
    static final int MAX_RETRY_AFTER_SECONDS = 6;
    /**
     * How long no fault must have been seen before a success ends the outage: requests that were in
     * flight when it ended still fail for a moment, and a fault that hits some statements only (a
     * timeout) should not turn into a start and an end line per request.
     */
    static final Duration QUIET = Duration.ofSeconds(2);
    /** Faults after which the pool's connections are replaced: they may point at the wrong server. */
    private static final Set<DatabaseFault> RECONNECT =
            EnumSet.of(DatabaseFault.CONNECTION, DatabaseFault.SHUTDOWN, DatabaseFault.READ_ONLY);

    private static final Duration RECONNECT_AT_MOST_EVERY = Duration.ofSeconds(2);

    private final Clock clock;
    private final Runnable reconnect;
    private final AtomicReference<Episode> current = new AtomicReference<>();
    private final AtomicReference<Instant> lastReconnect = new AtomicReference<>(Instant.EPOCH);
    private final ThreadLocal<boolean[]> usedDatabase = ThreadLocal.withInitial(() -> new boolean[1]);

    /** @param reconnect replaces the pool's connections (idle ones now, busy ones when returned) */
    public DatabaseOutage(Clock clock, Runnable reconnect) {
        this.clock = clock;
        this.reconnect = reconnect;
    }

    public DatabaseOutage(Clock clock) {
        this(clock, () -> {});
    }

    /** One outage: when it began, what was seen and logged, how many requests it turned away. */
    private static final class Episode {
        final Instant since;
        final AtomicLong turnedAway = new AtomicLong();
        final Set<DatabaseFault> seen = ConcurrentHashMap.newKeySet();
        volatile Instant lastFault;

        Episode(Instant since) {
            this.since = since;
            this.lastFault = since;
        }
    }

    /**
     * Records a failure that {@link DatabaseFaults#classify} recognised; returns the Retry-After to send.
     */
    public int turnedAway(Throwable cause) {
        DatabaseFault fault = DatabaseFaults.classify(cause).orElse(DatabaseFault.CONNECTION);
        Instant now = clock.instant();
        Episode episode = current.get();
        boolean first = false;
        while (episode == null) {
            Episode fresh = new Episode(now);
            if (current.compareAndSet(null, fresh)) {
                episode = fresh;
                first = true;
            } else {
                episode = current.get();
            }
        }
        episode.turnedAway.incrementAndGet();
        episode.lastFault = now;
        if (episode.seen.add(fault)) {
            LOG.warn(
                    first
                            ? "Database unavailable: {} ({}); answering 503 with Retry-After until it is back"
                            : "Database unavailable, also: {} ({})",
                    fault.description(),
                    describe(cause));
        }
        if (RECONNECT.contains(fault)) {
            reconnectAtMostEvery(now);
        }
        return retryAfterSeconds();
    }

    public boolean isOngoing() {
        return current.get() != null;
    }

    /** The kinds of fault the ongoing outage has seen, first found first; empty when there is none. */
    public Optional<DatabaseFault> ongoing() {
        Episode episode = current.get();
        return episode == null ? Optional.empty() : episode.seen.stream().findFirst();
    }

    /** Work that used the database was done without a fault: an outage quiet for {@link #QUIET} is over. */
    public void served() {
        Episode episode = current.get();
        if (episode == null) {
            return;
        }
        Instant now = clock.instant();
        if (Duration.between(episode.lastFault, now).compareTo(QUIET) < 0) {
            return;
        }
        if (current.compareAndSet(episode, null)) {
            LOG.info(
                    "Database available again after {} s (it was: {}); {} requests were answered 503 meanwhile",
                    Duration.between(episode.since, now).toSeconds(),
                    String.join(
                            "; ",
                            episode.seen.stream()
                                    .map(DatabaseFault::description)
                                    .sorted()
                                    .toList()),
                    episode.turnedAway.get());
        }
    }

    /** Starts a unit of work on this thread (a request): see {@link #endWork}. */
    public void beginWork() {
        usedDatabase.get()[0] = false;
    }

    /** Ends it: when it opened a database handle and was answered without a failure, it counts as served. */
    public void endWork(boolean answered) {
        boolean[] used = usedDatabase.get();
        if (used[0] && answered) {
            served();
        }
        used[0] = false;
    }

    /** Jittered, so clients turned away together do not all come back in the same second. */
    public static int retryAfterSeconds() {
        return ThreadLocalRandom.current().nextInt(MIN_RETRY_AFTER_SECONDS, MAX_RETRY_AFTER_SECONDS + 1);
    }

    @Override
    public void handleCreated(Handle handle) {
        usedDatabase.get()[0] = true;
    }

    private void reconnectAtMostEvery(Instant now) {
        Instant last = lastReconnect.get();
        if (Duration.between(last, now).compareTo(RECONNECT_AT_MOST_EVERY) >= 0
                && lastReconnect.compareAndSet(last, now)) {
            reconnect.run();
        }
    }

    /** The SQLState and the first line of the server's or driver's message: for the log only. */
    public static String describe(Throwable cause) {
        SQLException deepestSql = null;
        Throwable deepest = cause;
        int depth = 0;
        for (Throwable next = cause; next != null && depth++ < 32; next = next.getCause()) {
            deepest = next;
            if (next instanceof SQLException sql) {
                deepestSql = sql;
            }
            if (next.getCause() == next) {
                break;
            }
        }
        Throwable named = deepestSql != null ? deepestSql : deepest;
        String message = String.valueOf(named.getMessage()).lines().findFirst().orElse("");
        String state = deepestSql != null && deepestSql.getSQLState() != null
                ? "SQLState " + deepestSql.getSQLState() + ", "
                : "";
        return state + named.getClass().getSimpleName() + ": " + message;
    }
}
