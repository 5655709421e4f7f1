package chat.buzz.relay.ops;

import chat.buzz.relay.fleet.GateConfirmation;
import chat.buzz.relay.fleet.GateFlips;
import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.FlagHistoryEntry;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.incremental.IncrementalSchema;
import java.util.List;

/**
 * Takes incremental sync out of service: first the gate, for every instance, then (only when
 * confirmed) the schema back to the before-incremental tag. A dry run changes nothing at all.
 */
public final class IncrementalRollback {
    public enum Mode {
        DRY_RUN,
        GATE_ONLY,
        CONFIRMED
    }

    /**
     * What happened; {@code sql} is what the schema rollback runs (or ran); {@code confirmation} says which
     * instances confirmed the gate off (null on a dry run, or when the fleet view could not be read);
     * {@code blockers} are the instances that would refuse a confirmed rollback if it ran now.
     */
    public record Outcome(
            String tag,
            String mode,
            boolean tagPresent,
            FlagHistoryEntry gateChange,
            boolean schemaRolledBack,
            String sql,
            String next,
            GateConfirmation confirmation,
            List<String> blockers) {}

    private final GateFlips flips;
    private final MigrationLedger ledger;

    public IncrementalRollback(GateFlips flips, MigrationLedger ledger) {
        this.flips = flips;
        this.ledger = ledger;
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
                throw new OpsRefusal(
                        409,
                        "rollback_tag_missing",
                        "the ledger has no tag " + tag + "; nothing to roll back to",
                        List.of("tag " + tag));
            }
            String sql = ledger.rollbackSql(tag);
            List<String> blockers = flips.likelyBlockers();
            ledger.audit(operator, "rollback-incremental", tag, "dry run", reason);
            return new Outcome(
                    tag,
                    "dry-run",
                    true,
                    null,
                    false,
                    sql,
                    blockers.isEmpty()
                            ? "rerun with confirm=yes to turn the gate off and roll the schema back"
                            : "rerun with confirm=yes to turn the gate off and roll the schema back; "
                                    + String.join(", ", blockers) + " would not confirm it and so refuse the"
                                    + " rollback: stop that process (it then counts as gone) or add force=yes",
                    null,
                    blockers);
        }
        if (mode == Mode.CONFIRMED && !tagPresent) {
            ledger.audit(operator, "rollback-incremental", tag, "refused: tag missing", reason);
            throw new OpsRefusal(
                    409,
                    "rollback_tag_missing",
                    "the ledger has no tag " + tag + "; the gate was left unchanged",
                    List.of("tag " + tag));
        }
        GateFlips.ConfirmedFlip gateOff =
                flips.flip(operator, Gate.INCREMENTAL, FlagAction.OFF, "rollback-incremental: " + reason, false);
        GateConfirmation confirmation = gateOff.confirmation();
        if (mode == Mode.GATE_ONLY) {
            ledger.audit(operator, "rollback-incremental", tag, "gate off", reason);
            return new Outcome(
                    tag,
                    "gate-only",
                    tagPresent,
                    gateOff.change(),
                    false,
                    "",
                    (gateOff.everyInstanceConfirmed()
                                    ? "every instance confirmed the gate off"
                                    : "not every instance " + "confirmed the gate off (see confirmation)")
                            + "; rerun with confirm=yes to roll the "
                            + "schema back to " + tag,
                    confirmation,
                    confirmation == null ? List.of() : confirmation.unconfirmed());
        }
        long bound = flips.bound().toSeconds();
        String forcedPast = confirmation == null ? " (no fleet view: waited " + bound + " s)" : "";
        if (confirmation != null && !confirmation.everyInstanceConfirmed()) {
            List<String> unconfirmed = confirmation.unconfirmed();
            if (!force) {
                ledger.audit(
                        operator,
                        "rollback-incremental",
                        tag,
                        "refused: instances did not confirm the gate off",
                        String.join(", ", unconfirmed));
                throw new OpsRefusal(
                        409,
                        "instances_unconfirmed",
                        "the gate is off, but not every instance confirmed it "
                                + "within " + bound + " s; the schema was left unchanged. An instance listed"
                                + " here still holds database sessions (frozen or cut off): stop its process"
                                + " (it then counts as gone) or rerun with force=yes and a reason",
                        unconfirmed);
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
        return new Outcome(
                tag,
                "confirmed",
                true,
                gateOff.change(),
                true,
                sql,
                "the schema is at " + tag + "; relays keep accepting writes with the gate off;"
                        + " migrate forward (runbook 01) before turning the gate on again",
                confirmation,
                List.of());
    }
}
