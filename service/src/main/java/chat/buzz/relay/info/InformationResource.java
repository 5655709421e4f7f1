package chat.buzz.relay.info;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Nip11;
import chat.buzz.relay.fleet.BuildInfo;
import chat.buzz.relay.identity.RelayConfig;
import chat.buzz.relay.sync.SyncConfig;
import com.codahale.metrics.annotation.ExceptionMetered;
import com.codahale.metrics.annotation.Timed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.function.BooleanSupplier;

/** GET / with Accept: application/nostr+json, open to any origin and needing no auth (PROTOCOL 6). */
@Path("/")
public final class InformationResource {
    public static final String NOSTR_JSON = "application/nostr+json";

    private final RelayConfig config;
    private final String relayPubkey;
    private final Capabilities capabilities;
    private final BooleanSupplier policyChangesAsEntries;
    private final String version;
    private final int overlapSeconds;
    private final SyncConfig sync;

    public InformationResource(
            RelayConfig config,
            String relayPubkey,
            Capabilities capabilities,
            BooleanSupplier policyChangesAsEntries,
            int overlapSeconds,
            SyncConfig sync) {
        this.policyChangesAsEntries = policyChangesAsEntries;
        this.overlapSeconds = overlapSeconds;
        this.sync = sync;
        this.config = config;
        this.relayPubkey = relayPubkey;
        this.capabilities = capabilities;
        // The version Maven stamped into this build, the same the fleet view reports for the instance;
        // the jar manifest's is absent when the relay runs from classes (tests, an IDE).
        this.version = BuildInfo.ofThisBuild().version();
    }

    @GET
    @Timed
    @ExceptionMetered
    @Produces(NOSTR_JSON)
    public Response information() {
        RelayInformation document = new RelayInformation(
                config.getName(),
                config.getDescription(),
                relayPubkey,
                relayPubkey,
                "buzz-relay",
                version,
                List.of(1, 11, 29, 42, 98),
                capabilities.active(),
                new RelayInformation.Limitation(
                        config.getMaxBodyBytes(),
                        Limits.MAX_TAGS,
                        Limits.MAX_CONTENT_BYTES,
                        true,
                        sync.getMaxSubscriptionsPerConnection(),
                        sync.getMaxConnectionsPerAddress(),
                        sync.getMaxConnectionsPerPubkey(),
                        sync.getMaxConnections(),
                        sync.getMaxUnauthenticatedPerAddress()),
                new RelayInformation.Artifacts(
                        Kinds.ARTIFACT_REVISION,
                        Kinds.REMOVAL_MARKER,
                        "/query",
                        List.of("current", "incremental"),
                        new RelayInformation.Incremental(
                                Limits.INCREMENTAL_PAGE_SIZE,
                                Limits.INCREMENTAL_MAX_LIMIT,
                                overlapSeconds,
                                Limits.MAX_IDS,
                                Limits.MAX_SCOPE,
                                policyChangesAsEntries.getAsBoolean()
                                        ? Nip11.POLICY_CHANGES_ENTRIES
                                        : Nip11.POLICY_CHANGES_RESET)));
        return cors(Response.ok(document, NOSTR_JSON)).build();
    }

    @OPTIONS
    public Response preflight() {
        return cors(Response.noContent()).build();
    }

    private static Response.ResponseBuilder cors(Response.ResponseBuilder response) {
        return response.header("Access-Control-Allow-Origin", "*")
                .header("Access-Control-Allow-Headers", "*")
                .header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    }
}
