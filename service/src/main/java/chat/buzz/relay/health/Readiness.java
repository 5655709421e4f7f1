package chat.buzz.relay.health;

import chat.buzz.relay.database.DatabaseFault;
import chat.buzz.relay.database.DatabaseFaults;
import chat.buzz.relay.incremental.IncrementalSchema;
import com.codahale.metrics.Counter;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this instance should get traffic: the database answers within the probe's patience, the
 * schema it needs for what its gates allow is recorded, and its change feed (LISTEN) is connected so
 * WebSocket clients get live updates. The schema a rollback to before-incremental leaves is enough
 * while the incremental gate is off. Why it is not ready goes to the log, never to the unauthenticated
 * caller.
 *
 * <p>The probe is unauthenticated, so a flood of it must not become a flood of queries on the pool the
 * write path shares: the database is asked at most once per {@link #REFRESH}, by one caller at a time,
 * and every other probe is answered from the last verdict.
 */
public final class Readiness {
    private static final Logger LOG = LoggerFactory.getLogger(Readiness.class);
    private static final int QUERY_TIMEOUT_SECONDS = 2;
    static final Duration REFRESH = Duration.ofSeconds(1);
    public static final String CHECKS = "buzz.health.readiness-checks";

    /** The last look at the database; {@code incrementalPending} is empty when the schema is complete. */
    record SchemaState(String problem, List<String> incrementalPending, long checkedAtNanos) {}

    private final Jdbi jdbi;
    private final Set<String> requiredChangeSets;
    private final BooleanSupplier changeFeedConnected;
    private final BooleanSupplier incrementalEnabled;
    private final Counter checks;
    private final LongSupplier nanoTime;
    private final ReentrantLock refreshing = new ReentrantLock();
    private volatile SchemaState schema;
    private volatile String lastReason = "";
    private volatile BooleanSupplier stopping = () -> false;
    private final List<Requirement> requirements = new CopyOnWriteArrayList<>();

    /** Something besides the database the instance needs to serve, and what the log says without it. */
    private record Requirement(String whenMissing, BooleanSupplier met) {}

    public Readiness(
            Jdbi jdbi,
            Set<String> requiredChangeSets,
            BooleanSupplier changeFeedConnected,
            BooleanSupplier incrementalEnabled,
            Counter checks) {
        this(jdbi, requiredChangeSets, changeFeedConnected, incrementalEnabled, checks, System::nanoTime);
    }

    Readiness(
            Jdbi jdbi,
            Set<String> requiredChangeSets,
            BooleanSupplier changeFeedConnected,
            BooleanSupplier incrementalEnabled,
            Counter checks,
            LongSupplier nanoTime) {
        this.jdbi = jdbi;
        this.requiredChangeSets = Set.copyOf(requiredChangeSets);
        this.changeFeedConnected = changeFeedConnected;
        this.incrementalEnabled = incrementalEnabled;
        this.checks = checks;
        this.nanoTime = nanoTime;
    }

    public boolean isReady() {
        String reason = notReadyReason(schema());
        if (!reason.equals(lastReason)) {
            if (reason.isEmpty()) {
                LOG.info("Ready for traffic");
            } else {
                LOG.warn("Not ready for traffic: {}", reason);
            }
            lastReason = reason;
        }
        return reason.isEmpty();
    }

    /** The incremental changesets the database lacks, as of the last refresh (empty: all applied). */
    public List<String> incrementalPending() {
        return schema().incrementalPending();
    }

    /** The database's answer, if the last one is under a second old or another caller is fetching it. */
    SchemaState schema() {
        SchemaState known = schema;
        if (isFresh(known)) {
            return known;
        }
        if (known != null && !refreshing.tryLock()) {
            return known;
        }
        if (known == null) {
            refreshing.lock();
        }
        try {
            SchemaState latest = schema;
            if (!isFresh(latest)) {
                latest = lookAtDatabase();
                schema = latest;
            }
            return latest;
        } finally {
            refreshing.unlock();
        }
    }

    private boolean isFresh(SchemaState state) {
        return state != null && nanoTime.getAsLong() - state.checkedAtNanos() < REFRESH.toNanos();
    }

    /** From the moment {@code stopping} holds, the instance is not ready, whatever else is true. */
    void notReadyWhile(BooleanSupplier stopping) {
        this.stopping = stopping;
    }

    /**
     * Not ready while {@code met} is false; {@code whenMissing} is the reason the log gets. {@code met} is
     * asked on every probe, so it must answer from memory most of the time.
     */
    void requires(String whenMissing, BooleanSupplier met) {
        requirements.add(new Requirement(whenMissing, met));
    }

    private String notReadyReason(SchemaState state) {
        if (stopping.getAsBoolean()) {
            return "stopping: draining before shutdown";
        }
        if (!changeFeedConnected.getAsBoolean()) {
            return "the change feed (LISTEN) is not connected";
        }
        for (Requirement requirement : requirements) {
            if (!requirement.met().getAsBoolean()) {
                return requirement.whenMissing();
            }
        }
        if (!state.problem().isEmpty()) {
            return state.problem();
        }
        if (incrementalEnabled.getAsBoolean() && !state.incrementalPending().isEmpty()) {
            return "the incremental gate is on but its changesets are not applied: " + state.incrementalPending();
        }
        return "";
    }

    private SchemaState lookAtDatabase() {
        checks.inc();
        List<String> recorded;
        try {
            recorded =
                    jdbi.withHandle(handle -> handle.createQuery("SELECT id || '::' || author FROM databasechangelog")
                            .setQueryTimeout(QUERY_TIMEOUT_SECONDS)
                            .mapTo(String.class)
                            .list());
        } catch (RuntimeException e) {
            // A database fault is told by its kind (the outage's log line has the driver's words); a bug as it is.
            String why =
                    DatabaseFaults.classify(e).map(DatabaseFault::description).orElseGet(e::getMessage);
            return new SchemaState(
                    "the database did not answer: " + why, IncrementalSchema.CHANGESETS, nanoTime.getAsLong());
        }
        Set<String> missing = new HashSet<>(requiredChangeSets);
        missing.removeAll(recorded);
        String problem = missing.isEmpty()
                ? ""
                : "migrations not applied: " + missing.stream().sorted().toList();
        List<String> incrementalPending = IncrementalSchema.CHANGESETS.stream()
                .filter(id -> !recorded.contains(RequiredSchema.key(id, IncrementalSchema.CHANGESET_AUTHOR)))
                .toList();
        return new SchemaState(problem, incrementalPending, nanoTime.getAsLong());
    }
}
