package chat.buzz.relay.fleet;

import chat.buzz.relay.database.BackgroundFailures;
import chat.buzz.relay.database.DatabaseFaults;
import chat.buzz.relay.gate.DatabaseGates;
import chat.buzz.relay.gate.Gate;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every instance writes a heartbeat row into PostgreSQL; any instance's admin port shows them all.
 * An instance silent for three heartbeats is stale; one with no database session left is gone (an
 * operator may forget it at once); one silent for {@code forgetAfter} is removed.
 */
public final class Fleet {
    private static final Logger LOG = LoggerFactory.getLogger(Fleet.class);
    public static final int MISSED_BEATS_BEFORE_STALE = 3;
    /** The sparklines cover about this much recent time, in at most MAX_SAMPLES points. */
    private static final Duration SPARKLINE = Duration.ofMinutes(10);

    private static final int MAX_SAMPLES = 120;
    public static final String SUBSCRIPTIONS = "buzz.sync.subscriptions";
    public static final String PERMITS_IN_USE = "buzz.incremental.permits-in-use";
    /** database.maxSize: the most connections this instance's pool may open. */
    public static final String POOL_MAX_SIZE = "buzz.database.pool.max-size";

    private static final String RESETS_SERVED = "ops.sync.resets-served.";

    private final Jdbi jdbi;
    private final String instanceId;
    private final String host;
    private final BuildInfo build = BuildInfo.ofThisBuild();
    private final TrafficSeries traffic;
    // As PostgreSQL stores it, so a clean stop finds its own row by this value.
    private final Instant startedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
    private final DatabaseGates flags;
    private final BooleanSupplier changeFeedConnected;
    private final MetricRegistry metrics;
    private final Duration heartbeat;
    private final Duration forgetAfter;
    private volatile boolean warned;
    private final BackgroundFailures beatFailures =
            new BackgroundFailures(LOG, "Could not write this instance's heartbeat; will retry");
    private volatile boolean left;
    /** The last beat found the name held by a later process; warned once per such spell. */
    private volatile boolean nameTaken;

    public Fleet(
            Jdbi jdbi,
            String instanceId,
            String host,
            DatabaseGates flags,
            BooleanSupplier changeFeedConnected,
            MetricRegistry metrics,
            Duration heartbeat,
            Duration forgetAfter) {
        this.jdbi = jdbi;
        this.instanceId = instanceId;
        this.host = host;
        this.flags = flags;
        this.changeFeedConnected = changeFeedConnected;
        this.metrics = metrics;
        this.heartbeat = heartbeat;
        this.forgetAfter = forgetAfter;
        this.traffic = new TrafficSeries((int) Math.max(1, Math.min(MAX_SAMPLES, SPARKLINE.dividedBy(heartbeat))));
    }

    public void beatEvery(ScheduledExecutorService scheduler) {
        scheduler.scheduleWithFixedDelay(this::beatQuietly, 0, heartbeat.toMillis(), TimeUnit.MILLISECONDS);
    }

    void beatQuietly() {
        try {
            beat();
            warned = false;
            beatFailures.succeeded();
        } catch (RuntimeException e) {
            // A database blip, or relay_instances rolled back: the fleet view misses a beat, nothing else.
            if (DatabaseFaults.isFault(e)) {
                beatFailures.failed(e);
            } else if (!warned) {
                LOG.warn("Could not write this instance's heartbeat; will retry", e);
                warned = true;
            }
        }
    }

    /**
     * A graceful stop takes this instance out of the fleet view at once: it will not serve a stale gate,
     * so it must not hold up confirmations the way a frozen or crashed instance (silent, then stale) does.
     */
    public void leave() {
        left = true;
        try {
            jdbi.useExtension(FleetDao.class, dao -> dao.leave(instanceId, startedAt));
        } catch (RuntimeException e) {
            LOG.warn("Could not remove this instance from the fleet view; it goes stale instead", e);
        }
    }

    void beat() {
        if (left) {
            return;
        }
        Map<String, Boolean> gates = new LinkedHashMap<>();
        for (Gate gate : Gate.values()) {
            gates.put(gate.name().toLowerCase(Locale.ROOT), flags.isEnabled(gate));
        }
        List<TrafficSample> recent = traffic.record(
                Instant.now(), count(TrafficCounter.REQUESTS), count(TrafficCounter.UNAVAILABLE), resetsServed());
        InstanceReport report = new InstanceReport(
                instanceId,
                host,
                build.version(),
                build.build(),
                startedAt,
                null, // lastSeen: the database stamps the row with its own clock
                flags.lastRead(),
                gates,
                changeFeedConnected.getAsBoolean(),
                gauge("io.dropwizard.db.ManagedPooledDataSource.postgresql.active"),
                gauge(POOL_MAX_SIZE),
                gauge("buzz.sync.connections"),
                gauge(SUBSCRIPTIONS),
                gauge(PERMITS_IN_USE),
                recent);
        int written = jdbi.withExtension(FleetDao.class, dao -> {
            int rows = dao.beat(report, staleAfterSeconds());
            dao.forgetSilentFor(forgetAfter.toMillis() / 1000.0);
            return rows;
        });
        if (written == 0 && !nameTaken) {
            LOG.warn(
                    "Another live relay, started after this one, is also named {}: the fleet view shows that one "
                            + "only. Give each instance its own BUZZ_INSTANCE_NAME (or HTTP port).",
                    instanceId);
        }
        nameTaken = written == 0;
    }

    private double staleAfterSeconds() {
        return MISSED_BEATS_BEFORE_STALE * heartbeat.toMillis() / 1000.0;
    }

    /** Every instance that beat within forgetAfter, with whether it is stale (missed three beats) or gone. */
    public List<InstanceView> instances() {
        double staleAfter = staleAfterSeconds();
        return jdbi.withExtension(FleetDao.class, FleetDao::all).stream()
                .map(seen -> new InstanceView(
                        seen.report(),
                        seen.secondsSinceSeen() > staleAfter,
                        seen.sessions() == 0,
                        seen.secondsSinceSeen(),
                        seen.report().instanceId().equals(instanceId)))
                .toList();
    }

    /** What forgetting an instance came to. */
    public enum Forgotten {
        FORGOTTEN,
        /** Its process still holds database sessions: frozen or cut off, not gone. */
        NOT_GONE,
        UNKNOWN
    }

    /** Removes a gone instance from the fleet view; one that still holds a session is left alone. */
    public Forgotten forgetGone(String id) {
        return jdbi.inTransaction(handle -> {
            FleetDao dao = handle.attach(FleetDao.class);
            if (dao.forgetGone(id) > 0) {
                return Forgotten.FORGOTTEN;
            }
            boolean known = dao.all().stream()
                    .anyMatch(seen -> seen.report().instanceId().equals(id));
            return known ? Forgotten.NOT_GONE : Forgotten.UNKNOWN;
        });
    }

    /** The database's clock: heartbeats are stamped with it, so a flip is compared on the same clock. */
    public Instant databaseNow() {
        return jdbi.withHandle(h ->
                h.createQuery("SELECT clock_timestamp()").mapTo(Instant.class).one());
    }

    /**
     * Waits until every instance in the fleet view that is not gone has sent a heartbeat after
     * {@code flippedAt} (database clock) that applies {@code value} for the gate, or until {@code bound}
     * passes. Each instance is reported with the time of its first confirming heartbeat, not the last one
     * seen while others were awaited. The instances in {@code notAwaited} (stale ones a forced flip goes
     * past) are still reported, unconfirmed until they do confirm, but the wait does not last for them.
     */
    public GateConfirmation awaitGate(
            Gate gate, boolean value, Instant flippedAt, Duration bound, Set<String> notAwaited) {
        String name = gate.name().toLowerCase(Locale.ROOT);
        long deadline = System.nanoTime() + bound.toNanos();
        Map<String, Double> firstConfirmed = new HashMap<>();
        while (true) {
            GateConfirmation confirmation = confirmation(name, value, flippedAt, firstConfirmed);
            boolean awaitedConfirmed = confirmation.instances().stream()
                    .filter(i -> !i.gone() && !notAwaited.contains(i.instanceId()))
                    .allMatch(GateConfirmation.InstanceConfirmation::confirmed);
            if (confirmation.everyInstanceConfirmed()
                    || (!notAwaited.isEmpty() && awaitedConfirmed)
                    || System.nanoTime() >= deadline) {
                return confirmation;
            }
            try {
                Thread.sleep(Math.max(50, heartbeat.toMillis() / 2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return confirmation;
            }
        }
    }

    private GateConfirmation confirmation(
            String gate, boolean value, Instant flippedAt, Map<String, Double> firstConfirmed) {
        List<GateConfirmation.InstanceConfirmation> all = instances().stream()
                .map(view -> {
                    InstanceReport report = view.report();
                    boolean confirmed = !view.stale()
                            && !view.gone()
                            && report.lastSeen().isAfter(flippedAt)
                            && Boolean.valueOf(value).equals(report.gates().get(gate));
                    Double seconds = confirmed
                            ? firstConfirmed.computeIfAbsent(
                                    report.instanceId(),
                                    id -> Duration.between(flippedAt, report.lastSeen())
                                                    .toMillis()
                                            / 1000.0)
                            : null;
                    return new GateConfirmation.InstanceConfirmation(
                            report.instanceId(),
                            report.host(),
                            report.version(),
                            report.build(),
                            confirmed,
                            view.stale(),
                            view.gone(),
                            seconds);
                })
                .toList();
        List<GateConfirmation.InstanceConfirmation> serving =
                all.stream().filter(i -> !i.gone()).toList();
        boolean every =
                !serving.isEmpty() && serving.stream().allMatch(GateConfirmation.InstanceConfirmation::confirmed);
        Double last = all.stream()
                .filter(GateConfirmation.InstanceConfirmation::confirmed)
                .map(GateConfirmation.InstanceConfirmation::secondsAfterFlip)
                .max(Double::compare)
                .orElse(null);
        return new GateConfirmation(all, every, last);
    }

    public Duration heartbeat() {
        return heartbeat;
    }

    private long count(String counter) {
        return metrics.counter(counter).getCount();
    }

    /** Incremental resets this instance served, over every community (one meter per community). */
    private long resetsServed() {
        return metrics.getMeters((name, metric) -> name.startsWith(RESETS_SERVED)).values().stream()
                .mapToLong(Meter::getCount)
                .sum();
    }

    private int gauge(String name) {
        Gauge<?> gauge = metrics.getGauges().get(name);
        return gauge != null && gauge.getValue() instanceof Number number ? number.intValue() : 0;
    }
}
