package chat.buzz.relay.ops;

import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.FlagHistoryEntry;
import chat.buzz.relay.gate.FlagService;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.incremental.IncrementalSchema;
import chat.buzz.relay.fleet.Fleet;
import chat.buzz.relay.fleet.GateConfirmation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Takes incremental sync out of service: first the gate, for every instance, then (only when
 * confirmed) the schema back to the before-incremental tag. A dry run changes nothing at all.
 */
public final class IncrementalRollback {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(IncrementalRollback.class);
    public enum Mode { DRY_RUN, GATE_ONLY, CONFIRMED }

    /**
     * What happened; {@code sql} is what the schema rollback runs (or ran); {@code confirmation} says which
     * instances confirmed the gate off before it (null when the schema was not touched).
     */
    public record Outcome(String tag, String mode, boolean tagPresent, FlagHistoryEntry gateChange, boolean schemaRolledBack,
                          String sql, String next, GateConfirmation confirmation) {}

    private final FlagService flags;
    private final MigrationLedger ledger;
    private final Fleet fleet;
    private final Duration confirmationBound;

    /** @param confirmationBound how long to wait for every instance to confirm the gate off */
    public IncrementalRollback(FlagService flags, MigrationLedger ledger, Fleet fleet, Duration confirmationBound) {
        this.flags = flags;
        this.ledger = ledger;
        this.fleet = fleet;
        this.confirmationBound = confirmationBound;
    }

    public Outcome run(String operator, Mode mode, String reason) {
        return run(operator, mode, reason, false);
    }

    /** @param force roll the schema back even if some instance did not confirm the gate off (audited) */
    public Outcome run(String operator, Mode mode, String reason, boolean force) {
        if (reason == null || reason.isBlank()) {
            throw new OpsRefusal(400, "reason_required", "a reason is required");
        }
        String tag = IncrementalSchema.ROLLBACK_TAG;
        boolean tagPresent = ledger.tagExists(tag);
        if (mode == Mode.DRY_RUN) {
            if (!tagPresent) {
                throw new OpsRefusal(409, "rollback_tag_missing", "the ledger has no tag " + tag
                        + "; nothing to roll back to", List.of("tag " + tag));
            }
            String sql = ledger.rollbackSql(tag);
            ledger.audit(operator, "rollback-incremental", tag, "dry run", reason);
            return new Outcome(tag, "dry-run", true, null, false, sql,
                    "rerun with confirm=yes to turn the gate off and roll the schema back", null);
        }
        if (mode == Mode.CONFIRMED && !tagPresent) {
            ledger.audit(operator, "rollback-incremental", tag, "refused: tag missing", reason);
            throw new OpsRefusal(409, "rollback_tag_missing", "the ledger has no tag " + tag
                    + "; the gate was left unchanged", List.of("tag " + tag));
        }
        Instant flippedAt = Instant.now();
        try {
            flippedAt = fleet.databaseNow();
        } catch (RuntimeException e) {
            // Only the confirmation needs the database's clock; awaitConfirmation reports the problem.
        }
        FlagHistoryEntry gateOff = flags.change(operator, Gate.INCREMENTAL, FlagAction.OFF, "rollback-incremental: " + reason, false);
        if (mode == Mode.GATE_ONLY) {
            ledger.audit(operator, "rollback-incremental", tag, "gate off", reason);
            return new Outcome(tag, "gate-only", tagPresent, gateOff, false, "",
                    "the gate is off everywhere; rerun with confirm=yes to roll the schema back to " + tag, null);
        }
        GateConfirmation confirmation = awaitConfirmation(flippedAt);
        String forcedPast = confirmation == null ? " (no fleet view: waited " + confirmationBound.toSeconds() + " s)" : "";
        if (confirmation != null && !confirmation.everyInstanceConfirmed()) {
            List<String> unconfirmed = confirmation.unconfirmed();
            if (!force) {
                ledger.audit(operator, "rollback-incremental", tag, "refused: instances did not confirm the gate off",
                        String.join(", ", unconfirmed));
                throw new OpsRefusal(409, "instances_unconfirmed", "the gate is off, but not every instance confirmed it "
                        + "within " + confirmationBound.toSeconds() + " s; the schema was left unchanged. Check them "
                        + "(GET /api/instances), or rerun with force=yes", unconfirmed);
            }
            forcedPast = " (forced past unconfirmed: " + String.join(", ", unconfirmed) + ")";
        }
        String sql = ledger.rollbackSql(tag);
        try {
            ledger.rollback(tag);
        } catch (RuntimeException e) {
            ledger.audit(operator, "rollback-incremental", tag, "failed", e.getMessage());
            throw e;
        }
        ledger.audit(operator, "rollback-incremental", tag, "rolled back", reason + forcedPast);
        return new Outcome(tag, "confirmed", true, gateOff, true, sql,
                "the schema is at " + tag + "; relays keep accepting writes with the gate off;"
                        + " migrate forward (runbook 01) before turning the gate on again", confirmation);
    }

    /**
     * Every instance's confirmation, or null when the fleet view cannot be read (relay_instances missing
     * on a database that predates it): then the instances are given the whole bound to reread the flag.
     */
    private GateConfirmation awaitConfirmation(Instant flippedAt) {
        try {
            return fleet.awaitGate(Gate.INCREMENTAL, false, flippedAt, confirmationBound);
        } catch (RuntimeException e) {
            LOG.warn("No fleet view to confirm the gate off; waiting {} s instead", confirmationBound.toSeconds(), e);
            try {
                Thread.sleep(confirmationBound.toMillis());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the gate to reach every instance", interrupted);
            }
            return null;
        }
    }
}
