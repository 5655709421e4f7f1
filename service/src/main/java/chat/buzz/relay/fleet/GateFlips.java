package chat.buzz.relay.fleet;

import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.FlagHistoryEntry;
import chat.buzz.relay.gate.FlagRefusedException;
import chat.buzz.relay.gate.FlagService;
import chat.buzz.relay.gate.Gate;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
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

    private final FlagService flags;
    private final Fleet fleet;
    private final Duration bound;

    /** @param bound how long a flip waits for every instance to confirm before it reports who did not */
    public GateFlips(FlagService flags, Fleet fleet, Duration bound) {
        this.flags = flags;
        this.fleet = fleet;
        this.bound = bound;
    }

    /** @throws FlagRefusedException as {@link FlagService#change} does, before anything changed */
    public ConfirmedFlip flip(String operator, Gate gate, FlagAction action, String reason, boolean force) {
        Instant flippedAt = Instant.now();
        try {
            flippedAt = fleet.databaseNow();
        } catch (RuntimeException e) {
            // Only the confirmation needs the database's clock; awaitConfirmation reports the problem.
        }
        FlagHistoryEntry change = flags.change(operator, gate, action, reason, force);
        return new ConfirmedFlip(change, awaitConfirmation(gate, change.newValue(), flippedAt));
    }

    /**
     * The instances that would leave a flip unconfirmed if it were made now: stale (silent) but not gone,
     * so frozen or cut off; empty when the fleet view cannot be read.
     */
    public List<String> likelyBlockers() {
        try {
            return fleet.instances().stream()
                    .filter(view -> view.stale() && !view.gone())
                    .map(view -> String.format(
                            Locale.ROOT,
                            "%s (stale, silent %d s)",
                            view.report().instanceId(),
                            Math.round(view.secondsSinceSeen())))
                    .toList();
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    public Duration bound() {
        return bound;
    }

    /**
     * Every instance's confirmation, or null when the fleet view cannot be read (relay_instances missing
     * on a database that predates it): then the instances are given the whole bound to reread the flag.
     */
    private GateConfirmation awaitConfirmation(Gate gate, boolean value, Instant flippedAt) {
        try {
            return fleet.awaitGate(gate, value, flippedAt, bound);
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
