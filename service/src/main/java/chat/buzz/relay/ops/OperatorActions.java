package chat.buzz.relay.ops;

import chat.buzz.relay.fleet.GateFlips;
import chat.buzz.relay.gate.FlagAction;
import chat.buzz.relay.gate.FlagRefusedException;
import chat.buzz.relay.gate.FlagService;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.web.StorableText;
import java.util.Arrays;
import java.util.Locale;

/**
 * The operator actions, with their input checked once for both ways in: the console's JSON API and
 * the tasks runbooks call with curl. Every refusal is an {@link OpsRefusal} (a 4xx), never a 500.
 */
public final class OperatorActions {
    private final GateFlips flips;
    private final MigrationLedger ledger;
    private final IncrementalRollback rollback;

    public OperatorActions(GateFlips flips, MigrationLedger ledger, IncrementalRollback rollback) {
        this.flips = flips;
        this.ledger = ledger;
        this.rollback = rollback;
    }

    /** Flips the gate and waits (bounded) for every instance to confirm; the answer says who did. */
    public GateFlips.ConfirmedFlip setFlag(
            String operator, String gateName, String value, String reason, String force) {
        Gate gate = FlagService.parseGate(gateName)
                .orElseThrow(() -> new OpsRefusal(
                        400,
                        "unknown_gate",
                        "gate must be one of "
                                + Arrays.stream(Gate.values())
                                        .map(FlagService::wireName)
                                        .toList()));
        FlagAction action = FlagAction.parse(value)
                .orElseThrow(() -> new OpsRefusal(400, "invalid_value", "value must be on, off or clear"));
        String why = requireReason(reason);
        try {
            return flips.flip(operator, gate, action, why, parseBoolean("force", force));
        } catch (FlagRefusedException e) {
            throw new OpsRefusal(
                    409,
                    "preconditions_unmet",
                    "turning " + FlagService.wireName(gate)
                            + " on was refused: its preconditions are not met (force=true with a reason overrides)",
                    e.unmet());
        }
    }

    public SchemaDao.LedgerRow recordMigration(String operator, String id, String reason) {
        if (id == null || id.isBlank()) {
            throw new OpsRefusal(400, "id_required", "the changeset id is required");
        }
        refuseNul("id", id);
        refuseNul("reason", reason);
        return ledger.record(operator, id.strip(), reason);
    }

    public IncrementalRollback.Outcome rollback(String operator, String dryRun, String confirm, String reason) {
        return rollback(operator, dryRun, confirm, reason, null);
    }

    public IncrementalRollback.Outcome rollback(
            String operator, String dryRun, String confirm, String reason, String force) {
        boolean forced = parseBoolean("force", force);
        boolean dry = parseBoolean("dry-run", dryRun);
        boolean confirmed = confirm != null && confirm.strip().equalsIgnoreCase("yes");
        if (confirm != null && !confirm.isBlank() && !confirmed) {
            throw new OpsRefusal(400, "invalid_confirm", "confirm must be exactly yes");
        }
        if (dry && confirmed) {
            throw new OpsRefusal(400, "conflicting_modes", "choose dry-run or confirm, not both");
        }
        IncrementalRollback.Mode mode = dry
                ? IncrementalRollback.Mode.DRY_RUN
                : confirmed ? IncrementalRollback.Mode.CONFIRMED : IncrementalRollback.Mode.GATE_ONLY;
        return rollback.run(operator, mode, requireReason(reason), forced);
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

    private static boolean parseBoolean(String name, String value) {
        if (value == null || value.isBlank()) {
            return false;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "1", "on" -> true;
            case "false", "no", "0", "off" -> false;
            default -> throw new OpsRefusal(400, "invalid_" + name.replace('-', '_'), name + " must be true or false");
        };
    }
}
