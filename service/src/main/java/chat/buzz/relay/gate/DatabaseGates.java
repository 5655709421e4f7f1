package chat.buzz.relay.gate;

import chat.buzz.relay.database.BackgroundFailures;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gates backed by PostgreSQL. Each instance rereads the overrides every refresh interval, so a flip on
 * one instance reaches all of them within that interval without any instance talking to another.
 * Requests read the cached copy, never the database.
 */
public final class DatabaseGates implements Gates {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseGates.class);

    private final Jdbi jdbi;
    private final GatesConfig defaults;
    private final GatePreconditions preconditions;
    private volatile Instant lastRead;
    private volatile Map<Gate, FlagDao.OverrideRow> overrides = Map.of();

    public DatabaseGates(Jdbi jdbi, GatesConfig defaults, GatePreconditions preconditions) {
        this.jdbi = jdbi;
        this.defaults = defaults;
        this.preconditions = preconditions;
        refresh();
    }

    public static Optional<Gate> parseGate(String name) {
        if (name == null) {
            return Optional.empty();
        }
        String wanted = name.strip().toUpperCase(Locale.ROOT);
        for (Gate gate : Gate.values()) {
            if (gate.name().equals(wanted) || gate.capability().equalsIgnoreCase(name.strip())) {
                return Optional.of(gate);
            }
        }
        return Optional.empty();
    }

    public static String wireName(Gate gate) {
        return gate.name().toLowerCase(Locale.ROOT);
    }

    public void refreshEvery(ScheduledExecutorService scheduler, long millis) {
        BackgroundFailures failures =
                new BackgroundFailures(LOG, "Could not reread feature flags; keeping the last known values");
        scheduler.scheduleWithFixedDelay(
                () -> {
                    try {
                        refresh();
                        failures.succeeded();
                    } catch (RuntimeException e) {
                        // Keep serving the last known flags: a database blip must not flip features.
                        failures.failed(e);
                    }
                },
                millis,
                millis,
                TimeUnit.MILLISECONDS);
    }

    public void registerMetrics(MetricRegistry metrics) {
        for (Gate gate : Gate.values()) {
            String prefix = MetricRegistry.name("gates", wireName(gate));
            metrics.registerGauge(prefix + ".enabled", () -> isEnabled(gate) ? 1 : 0);
            metrics.registerGauge(prefix + ".overridden", (Gauge<Integer>)
                    () -> overrides.containsKey(gate) && overrides.get(gate).overrideEnabled() != null ? 1 : 0);
        }
    }

    void refresh() {
        Map<Gate, FlagDao.OverrideRow> fresh = new EnumMap<>(Gate.class);
        for (FlagDao.OverrideRow row : jdbi.withExtension(FlagDao.class, FlagDao::overrides)) {
            parseGate(row.gate()).ifPresent(gate -> fresh.put(gate, row));
        }
        overrides = fresh;
        lastRead = Instant.now();
    }

    /** When this instance last reread the flags from PostgreSQL (null before the first read). */
    public Instant lastRead() {
        return lastRead;
    }

    @Override
    public boolean isEnabled(Gate gate) {
        FlagDao.OverrideRow row = overrides.get(gate);
        if (row != null && row.overrideEnabled() != null) {
            return row.overrideEnabled();
        }
        return defaults.defaultFor(gate);
    }

    public List<FlagState> states() {
        List<FlagState> states = new ArrayList<>();
        for (Gate gate : Gate.values()) {
            FlagDao.OverrideRow row = overrides.get(gate);
            states.add(new FlagState(
                    wireName(gate),
                    gate.capability(),
                    gate.environmentVariable(),
                    defaults.defaultFor(gate),
                    row == null ? null : row.overrideEnabled(),
                    isEnabled(gate),
                    row == null ? null : row.updatedAt(),
                    row == null ? null : row.updatedBy()));
        }
        return states;
    }

    public FlagState state(Gate gate) {
        return states().stream()
                .filter(s -> s.gate().equals(wireName(gate)))
                .findFirst()
                .orElseThrow();
    }

    /** The unmet preconditions for turning the gate on right now; empty when it may be turned on. */
    public List<String> unmetPreconditions(Gate gate) {
        return preconditions.unmet(gate);
    }

    /**
     * Changes a gate for the whole deployment and appends the history entry in the same transaction.
     *
     * @throws FlagRefusedException when the change would turn the gate on while its preconditions are
     *         unmet and {@code force} is false
     */
    public FlagHistoryEntry change(String operator, Gate gate, FlagAction action, String reason, boolean force) {
        return change(operator, gate, action, reason, force, List.of());
    }

    /**
     * As above; {@code forcedPast} names what else the operator forced the flip past (stale instances that
     * cannot confirm it): the history then records the flip as forced, with those beside any unmet
     * preconditions, so a forced flip reads as forced wherever the history is shown.
     */
    public FlagHistoryEntry change(
            String operator, Gate gate, FlagAction action, String reason, boolean force, List<String> forcedPast) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a reason is required");
        }
        String name = wireName(gate);
        FlagHistoryEntry entry = jdbi.inTransaction(handle -> {
            FlagDao dao = handle.attach(FlagDao.class);
            dao.ensureRow(name);
            FlagDao.OverrideRow row = dao.lock(name).orElseThrow();
            boolean oldValue = row.overrideEnabled() != null ? row.overrideEnabled() : defaults.defaultFor(gate);
            Boolean newOverride = action.overrideValue();
            boolean newValue = newOverride != null ? newOverride : defaults.defaultFor(gate);
            List<String> unmet = newValue && !oldValue ? preconditions.unmet(gate) : List.of();
            if (!unmet.isEmpty() && !force) {
                throw new FlagRefusedException(gate, unmet);
            }
            List<String> wentPast = new ArrayList<>(force ? unmet : List.of());
            wentPast.addAll(forcedPast);
            dao.setOverride(name, newOverride, operator);
            dao.appendHistory(
                    name,
                    operator,
                    action.wireName(),
                    reason.strip(),
                    oldValue,
                    newValue,
                    !wentPast.isEmpty(),
                    wentPast.toArray(String[]::new));
            return dao.history(name, 1).get(0);
        });
        refresh();
        LOG.info(
                "Operator {} set gate {} to {} ({} -> {}){}: {}",
                operator,
                name,
                action.wireName(),
                entry.oldValue(),
                entry.newValue(),
                entry.forced() ? " FORCED past " + entry.unmet() : "",
                entry.reason());
        return entry;
    }

    public List<FlagHistoryEntry> history(Optional<Gate> gate, int limit) {
        return jdbi.withExtension(
                FlagDao.class,
                dao -> dao.history(gate.map(DatabaseGates::wireName).orElse(null), limit));
    }
}
