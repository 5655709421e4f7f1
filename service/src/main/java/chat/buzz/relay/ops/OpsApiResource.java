package chat.buzz.relay.ops;

import chat.buzz.relay.admin.Operator;
import chat.buzz.relay.fleet.Fleet;
import chat.buzz.relay.fleet.GateFlips;
import chat.buzz.relay.gate.DatabaseGates;
import chat.buzz.relay.gate.FlagHistoryEntry;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.incremental.IncrementalSchema;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * The console's JSON API on the admin port, under /api. Thin: each route delegates to one service.
 * Bodies are read with {@link OpsApiRequests}, answers are {@link OpsApiViews}, and refusals are
 * {@link OpsRefusal}s answered by {@link OpsApiErrors}.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON + ";charset=utf-8")
public final class OpsApiResource {
    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;

    private final DatabaseGates flags;
    private final IncrementalReadiness readiness;
    private final MigrationLedger ledger;
    private final BurstTimeline bursts;
    private final OperatorActions actions;
    private final Fleet fleet;

    public OpsApiResource(
            Fleet fleet,
            DatabaseGates flags,
            IncrementalReadiness readiness,
            MigrationLedger ledger,
            BurstTimeline bursts,
            OperatorActions actions) {
        this.fleet = fleet;
        this.flags = flags;
        this.readiness = readiness;
        this.ledger = ledger;
        this.bursts = bursts;
        this.actions = actions;
    }

    @GET
    @Path("whoami")
    public OpsApiViews.Whoami whoami() {
        return new OpsApiViews.Whoami(Operator.name());
    }

    @GET
    @Path("flags")
    public OpsApiViews.Flags flags() {
        return new OpsApiViews.Flags(flags.states(), new OpsApiViews.Unmet(flags.unmetPreconditions(Gate.INCREMENTAL)));
    }

    @GET
    @Path("flags/history")
    public List<FlagHistoryEntry> flagHistory(@QueryParam("gate") String gate, @QueryParam("limit") String limit) {
        return flags.history(optionalGate(gate), limit(limit));
    }

    @GET
    @Path("migrations")
    public OpsApiViews.Migrations migrations() {
        return new OpsApiViews.Migrations(
                ledger.ledger(),
                ledger.pending(),
                readiness.indexes(),
                ledger.runningBuilds(),
                IncrementalSchema.ROLLBACK_TAG,
                ledger.tagExists(IncrementalSchema.ROLLBACK_TAG),
                IncrementalSchema.CHANGESETS);
    }

    @GET
    @Path("instances")
    public OpsApiViews.Instances instances() {
        return new OpsApiViews.Instances(
                fleet.heartbeat().toMillis() / 1000.0,
                Fleet.MISSED_BEATS_BEFORE_STALE,
                fleet.instances(),
                new OpsApiViews.Unmet(readiness.unmet(Gate.INCREMENTAL)));
    }

    @POST
    @Path("instances/forget")
    public OpsApiViews.Forgotten forgetInstance(@HeaderParam(HttpHeaders.CONTENT_TYPE) String type, InputStream body)
            throws IOException {
        OpsApiRequests.ForgetInstance forget = OpsApiRequests.read(type, body, OpsApiRequests.ForgetInstance.class);
        return actions.forgetInstance(Operator.name(), forget.instanceId(), forget.reason());
    }

    @GET
    @Path("bursts")
    public OpsApiViews.Bursts bursts(@QueryParam("window") String window, @QueryParam("community") String community) {
        BurstTimeline.Window parsed = BurstTimeline.Window.parse(window)
                .orElseThrow(() -> new OpsRefusal(400, "invalid_window", "window must be hour, day or week"));
        List<BurstDao.CommunityRow> communities = bursts.communities();
        long communityId;
        if (community == null || community.isBlank()) {
            communityId = communities.isEmpty() ? -1 : communities.get(0).id();
        } else {
            try {
                communityId = Long.parseLong(community.strip());
            } catch (NumberFormatException e) {
                throw new OpsRefusal(400, "invalid_community", "community must be a community id");
            }
        }
        BurstTimeline.Timeline timeline = bursts.timeline(communityId, parsed)
                .orElseThrow(() -> new OpsRefusal(404, "unknown_community", "no community " + community));
        return new OpsApiViews.Bursts(communities, timeline);
    }

    @GET
    @Path("audit")
    public List<SchemaDao.AuditRow> audit(@QueryParam("limit") String limit) {
        return ledger.auditTrail(limit(limit));
    }

    @POST
    @Path("flags")
    public GateFlips.ConfirmedFlip setFlag(@HeaderParam(HttpHeaders.CONTENT_TYPE) String type, InputStream body)
            throws IOException {
        OpsApiRequests.FlagChange change = OpsApiRequests.read(type, body, OpsApiRequests.FlagChange.class);
        return actions.setFlagNamingStale(
                Operator.name(), change.gate(), change.value(), change.reason(), change.force());
    }

    @POST
    @Path("migrations/record")
    public SchemaDao.LedgerRow recordMigration(@HeaderParam(HttpHeaders.CONTENT_TYPE) String type, InputStream body)
            throws IOException {
        OpsApiRequests.MigrationRecord record = OpsApiRequests.read(type, body, OpsApiRequests.MigrationRecord.class);
        return actions.recordMigration(Operator.name(), record.id(), record.reason());
    }

    @POST
    @Path("rollback")
    public IncrementalRollback.Outcome rollback(@HeaderParam(HttpHeaders.CONTENT_TYPE) String type, InputStream body)
            throws IOException {
        OpsApiRequests.Rollback rollback = OpsApiRequests.read(type, body, OpsApiRequests.Rollback.class);
        return actions.rollback(
                Operator.name(), rollback.dryRun(), rollback.confirm(), rollback.reason(), rollback.force());
    }

    private static Optional<Gate> optionalGate(String name) {
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(DatabaseGates.parseGate(name)
                .orElseThrow(() -> new OpsRefusal(400, "unknown_gate", "no gate " + name)));
    }

    private static int limit(String value) {
        if (value == null || value.isBlank()) {
            return DEFAULT_LIMIT;
        }
        try {
            int limit = Integer.parseInt(value.strip());
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new OpsRefusal(400, "invalid_limit", "limit must be between 1 and 1000");
            }
            return limit;
        } catch (NumberFormatException e) {
            throw new OpsRefusal(400, "invalid_limit", "limit must be a number");
        }
    }
}
