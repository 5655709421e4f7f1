package chat.buzz.relay.fleet;

import chat.buzz.relay.gate.DatabaseGates;
import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.FlagHistoryEntry;
import chat.buzz.relay.gate.FlagRefusedException;
import chat.buzz.relay.gate.Gate;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a gate is flipped for the fleet: change it in PostgreSQL, then wait (bounded) until every live
 * instance's heartbeat says it applies the new value. The flag task, the console and rollback-incremental
 * all flip through here, so they report confirmations the same way.
 */
public final class GateFlips {
    private static final Logger LOG = LoggerFactory.getLogger(GateFlips.class);

    /**
     * A flip and who confirmed it. The history entry's fields stay at the top level of the JSON, where
     * runbooks read them; {@code confirmation} is null when the fleet view could not be read.
     */
    public record ConfirmedFlip(@JsonUnwrapped FlagHistoryEntry change, GateConfirmation confirmation) {
        public boolean everyInstanceConfirmed() {
            return confirmation != null && confirmation.everyInstanceConfirmed();
        }
    }

    private final DatabaseGates flags;
    private final Fleet fleet;
    private final Duration bound;

    /** @param bound how long a flip waits for every instance to confirm before it reports who did not */
    public GateFlips(DatabaseGates flags, Fleet fleet, Duration bound) {
        this.flags = flags;
        this.fleet = fleet;
        this.bound = bound;
    }

    /** @throws FlagRefusedException as {@link DatabaseGates#change} does, before anything changed */
    public ConfirmedFlip flip(String operator, Gate gate, FlagAction action, String reason, boolean force) {
        return flip(operator, gate, action, reason, force, List.of());
    }

    /**
     * As above, forced past {@code staleNow} (from {@link #staleInstances()}): the history records the flip
     * as forced past them, and the wait ends once every other instance confirmed, since a frozen process
     * would only use up the whole bound.
     */
    public ConfirmedFlip flip(
            String operator, Gate gate, FlagAction action, String reason, boolean force, List<InstanceView> staleNow) {
        Instant flippedAt = Instant.now();
        try {
            flippedAt = fleet.databaseNow();
        } catch (RuntimeException e) {
            // Only the confirmation needs the database's clock; awaitConfirmation reports the problem.
        }
        List<String> forcedPast = staleNow.stream()
                .map(view -> "instance " + describe(view) + " not waited for")
                .toList();
        FlagHistoryEntry change = flags.change(operator, gate, action, reason, force, forcedPast);
        Set<String> notAwaited =
                staleNow.stream().map(view -> view.report().instanceId()).collect(Collectors.toSet());
        return new ConfirmedFlip(change, awaitConfirmation(gate, change.newValue(), flippedAt, notAwaited));
    }

    /**
     * The instances that would leave a flip unconfirmed if it were made now: stale (silent) but not gone,
     * so frozen or cut off; empty when the fleet view cannot be read.
     */
    public List<InstanceView> staleInstances() {
        try {
            return fleet.instances().stream()
                    .filter(view -> view.stale() && !view.gone())
                    .toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** {@link #staleInstances()} as the operator reads them: each named, with how long it has been silent. */
    public List<String> likelyBlockers() {
        return staleInstances().stream().map(GateFlips::describe).toList();
    }

    public static String describe(InstanceView stale) {
        return String.format(
                Locale.ROOT,
                "%s (stale, silent %d s)",
                stale.report().instanceId(),
                Math.round(stale.secondsSinceSeen()));
    }

    public Duration bound() {
        return bound;
    }

    /**
     * Every instance's confirmation, or null when the fleet view cannot be read (relay_instances missing
     * on a database that predates it): then the instances are given the whole bound to reread the flag.
     */
    private GateConfirmation awaitConfirmation(Gate gate, boolean value, Instant flippedAt, Set<String> notAwaited) {
        try {
            return fleet.awaitGate(gate, value, flippedAt, bound, notAwaited);
        } catch (RuntimeException e) {
            LOG.warn("No fleet view to confirm the gate flip; waiting {} s instead", bound.toSeconds(), e);
            try {
                Thread.sleep(bound.toMillis());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(
                        "interrupted while waiting for the gate to reach every instance", interrupted);
            }
            return null;
        }
    }
}
