package chat.buzz.relay.ops;

import chat.buzz.relay.fleet.Fleet;
import chat.buzz.relay.fleet.GateFlips;
import chat.buzz.relay.fleet.InstanceView;
import chat.buzz.relay.gate.DatabaseGates;
import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.FlagRefusedException;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.web.StorableText;
import java.util.List;

/**
 * The operator actions, with their input checked once for both ways in: the console's JSON API and
 * the tasks runbooks call with curl. Both read the operator's words with {@link OperatorInput}; what is
 * checked here (a reason, no NUL) is the same whichever way the action came. Every refusal is an
 * {@link OpsRefusal} (a 4xx), never a 500.
 */
public final class OperatorActions {
    private final GateFlips flips;
    private final MigrationLedger ledger;
    private final IncrementalRollback rollback;
    private final Fleet fleet;

    public OperatorActions(GateFlips flips, MigrationLedger ledger, IncrementalRollback rollback, Fleet fleet) {
        this.fleet = fleet;
        this.flips = flips;
        this.ledger = ledger;
        this.rollback = rollback;
    }

    /** Flips the gate and waits (bounded) for every instance to confirm; the answer says who did. */
    public GateFlips.ConfirmedFlip setFlag(
            String operator, Gate gate, FlagAction action, String reason, boolean force) {
        String why = requireReason(reason);
        try {
            return flips.flip(operator, gate, action, why, force);
        } catch (FlagRefusedException e) {
            throw preconditionsUnmet(gate, e);
        }
    }

    private static OpsRefusal preconditionsUnmet(Gate gate, FlagRefusedException e) {
        return new OpsRefusal(
                409,
                "preconditions_unmet",
                "turning " + DatabaseGates.wireName(gate)
                        + " on was refused: its preconditions are not met (force=true with a reason overrides)",
                e.unmet());
    }

    /**
     * The console's flip ({@code POST /api/flags}): an instance already stale could only use up the whole
     * confirmation bound and then be reported unconfirmed, so it is named at once and nothing changes
     * (409 {@code instances_stale}). Forced, the flip goes past it: recorded as forced, not waited for.
     * The {@code flag} task keeps waiting, as the runbooks expect.
     */
    public GateFlips.ConfirmedFlip setFlagNamingStale(
            String operator, Gate gate, FlagAction action, String reason, boolean force) {
        String why = requireReason(reason);
        List<InstanceView> stale = flips.staleInstances();
        if (!stale.isEmpty() && !force) {
            throw new OpsRefusal(
                    409,
                    "instances_stale",
                    "nothing changed: a stale instance (frozen or cut off) cannot confirm the flip, which would"
                            + " wait " + flips.bound().toSeconds() + " s for it; force=true flips without waiting"
                            + " for it (the history records it as forced)",
                    stale.stream().map(GateFlips::describe).toList());
        }
        try {
            return flips.flip(operator, gate, action, why, force, stale);
        } catch (FlagRefusedException e) {
            throw preconditionsUnmet(gate, e);
        }
    }

    public SchemaDao.LedgerRow recordMigration(String operator, String id, String reason) {
        if (id == null || id.isBlank()) {
            throw new OpsRefusal(400, "id_required", "the changeset id is required");
        }
        refuseNul("id", id);
        return ledger.record(operator, id.strip(), requireReason(reason));
    }

    /**
     * Removes an instance whose process is gone from the fleet view, audited. One that still holds a
     * database session (frozen, cut off) is refused: it may wake up and serve, so it must keep counting.
     */
    public OpsApiViews.Forgotten forgetInstance(String operator, String instanceId, String reason) {
        if (instanceId == null || instanceId.isBlank()) {
            throw new OpsRefusal(400, "instance_required", "the instance id is required");
        }
        refuseNul("instanceId", instanceId);
        String why = requireReason(reason);
        String id = instanceId.strip();
        Fleet.Forgotten outcome = fleet.forgetGone(id);
        switch (outcome) {
            case FORGOTTEN -> {
                ledger.audit(operator, "forget-instance", id, "forgotten", why);
                return new OpsApiViews.Forgotten(id, "forgotten");
            }
            case NOT_GONE -> {
                ledger.audit(operator, "forget-instance", id, "refused: instance not gone", why);
                throw new OpsRefusal(
                        409,
                        "instance_not_gone",
                        "the instance still holds database sessions (frozen or cut off, not gone); stop its "
                                + "process, or force the flip or rollback past it",
                        List.of(id));
            }
            default -> throw new OpsRefusal(404, "unknown_instance", "no instance " + id + " in the fleet view");
        }
    }

    /** Gate off only, or with {@code dryRun} the schema rollback's SQL, or with {@code confirmed} the rollback. */
    public IncrementalRollback.Outcome rollback(
            String operator, boolean dryRun, boolean confirmed, String reason, boolean force) {
        if (dryRun && confirmed) {
            throw new OpsRefusal(400, "conflicting_modes", "choose dry-run or confirm, not both");
        }
        IncrementalRollback.Mode mode = dryRun
                ? IncrementalRollback.Mode.DRY_RUN
                : confirmed ? IncrementalRollback.Mode.CONFIRMED : IncrementalRollback.Mode.GATE_ONLY;
        return rollback.run(operator, mode, requireReason(reason), force);
    }

    private static String requireReason(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new OpsRefusal(400, "reason_required", "a reason is required");
        }
        if (reason.length() > 2000) {
            throw new OpsRefusal(400, "reason_too_long", "keep the reason under 2000 characters");
        }
        refuseNul("reason", reason);
        return reason.strip();
    }

    /** Operator text ends up in the audit and history tables, which cannot store U+0000. */
    private static void refuseNul(String name, String value) {
        if (StorableText.hasNul(value)) {
            throw new OpsRefusal(400, "nul_character", name + " must not contain NUL (U+0000)");
        }
    }
}
