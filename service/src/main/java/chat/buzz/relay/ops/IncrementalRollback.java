package chat.buzz.relay.ops;

import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.FlagHistoryEntry;
import chat.buzz.relay.gate.FlagService;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.incremental.IncrementalSchema;
import java.time.Duration;
import java.util.List;

/**
 * Takes incremental sync out of service: first the gate, for every instance, then (only when
 * confirmed) the schema back to the before-incremental tag. A dry run changes nothing at all.
 */
public final class IncrementalRollback {
    public enum Mode { DRY_RUN, GATE_ONLY, CONFIRMED }

    /** What happened; {@code sql} is what the schema rollback runs (or ran). */
    public record Outcome(String tag, String mode, boolean tagPresent, FlagHistoryEntry gateChange, boolean schemaRolledBack,
                          String sql, String next) {}

    private final FlagService flags;
    private final MigrationLedger ledger;
    private final Duration propagation;

    /** @param propagation how long until every instance has seen the gate change (twice the refresh interval) */
    public IncrementalRollback(FlagService flags, MigrationLedger ledger, Duration propagation) {
        this.flags = flags;
        this.ledger = ledger;
        this.propagation = propagation;
    }

    public Outcome run(String operator, Mode mode, String reason) {
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
                    "rerun with confirm=yes to turn the gate off and roll the schema back");
        }
        if (mode == Mode.CONFIRMED && !tagPresent) {
            ledger.audit(operator, "rollback-incremental", tag, "refused: tag missing", reason);
            throw new OpsRefusal(409, "rollback_tag_missing", "the ledger has no tag " + tag
                    + "; the gate was left unchanged", List.of("tag " + tag));
        }
        FlagHistoryEntry gateOff = flags.change(operator, Gate.INCREMENTAL, FlagAction.OFF, "rollback-incremental: " + reason, false);
        if (mode == Mode.GATE_ONLY) {
            ledger.audit(operator, "rollback-incremental", tag, "gate off", reason);
            return new Outcome(tag, "gate-only", tagPresent, gateOff, false, "",
                    "the gate is off everywhere; rerun with confirm=yes to roll the schema back to " + tag);
        }
        awaitPropagation();
        String sql = ledger.rollbackSql(tag);
        try {
            ledger.rollback(tag);
        } catch (RuntimeException e) {
            ledger.audit(operator, "rollback-incremental", tag, "failed", e.getMessage());
            throw e;
        }
        ledger.audit(operator, "rollback-incremental", tag, "rolled back", reason);
        return new Outcome(tag, "confirmed", true, gateOff, true, sql,
                "the schema is at " + tag + "; relays keep accepting writes with the gate off;"
                        + " migrate forward (runbook 01) before turning the gate on again");
    }

    /** Lets every instance reread the flag before the indexes its incremental reads use disappear. */
    private void awaitPropagation() {
        try {
            Thread.sleep(propagation.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the gate to reach every instance", e);
        }
    }
}
