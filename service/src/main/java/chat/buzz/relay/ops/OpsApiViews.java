package chat.buzz.relay.ops;

import chat.buzz.relay.fleet.InstanceView;
import chat.buzz.relay.gate.FlagState;
import java.util.List;

/** What the admin API answers, field for field as the console and the runbooks read it. */
final class OpsApiViews {
    private OpsApiViews() {}

    /** {@code GET /api/whoami} */
    record Whoami(String operator) {}

    /** {@code GET /api/flags}: every gate, and what keeps incremental from being turned on. */
    record Flags(List<FlagState> flags, Unmet unmet) {}

    record Unmet(List<String> incremental) {}

    /** {@code GET /api/migrations} */
    record Migrations(
            List<SchemaDao.LedgerRow> ledger,
            List<PendingChangeSet> pending,
            List<IndexCheck> indexes,
            List<SchemaDao.BuildProgress> builds,
            String rollbackTag,
            boolean rollbackTagPresent,
            List<String> incrementalChangesets) {}

    /**
     * {@code GET /api/instances}: the fleet view, and the incremental schema's state (one database, so one
     * state for the fleet) apart from readiness, which a schema rolled back with the gate off keeps.
     */
    record Instances(
            double heartbeatSeconds,
            int staleAfterMissedBeats,
            List<InstanceView> instances,
            Unmet incrementalSchema) {}

    /** {@code POST /api/instances/forget} */
    record Forgotten(String instanceId, String outcome) {}

    /** {@code GET /api/bursts} */
    record Bursts(List<BurstDao.CommunityRow> communities, BurstTimeline.Timeline timeline) {}
}
