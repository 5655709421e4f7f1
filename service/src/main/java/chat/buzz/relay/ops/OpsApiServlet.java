package chat.buzz.relay.ops;

import chat.buzz.protocol.StrictJson;
import chat.buzz.relay.admin.Operator;
import chat.buzz.relay.database.DatabaseFaults;
import chat.buzz.relay.database.DatabaseOutage;
import chat.buzz.relay.gate.FlagService;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.incremental.IncrementalSchema;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The console's JSON API on the admin port, under /api. Thin: each route delegates to one service. */
public final class OpsApiServlet extends HttpServlet {
    private static final Logger LOG = LoggerFactory.getLogger(OpsApiServlet.class);
    private static final int MAX_BODY = 16 * 1024;

    private final transient FlagService flags;
    private final transient IncrementalReadiness readiness;
    private final transient MigrationLedger ledger;
    private final transient BurstTimeline bursts;
    private final transient OperatorActions actions;
    private final transient ObjectMapper json;
    private final transient DatabaseOutage outage;

    public OpsApiServlet(FlagService flags, IncrementalReadiness readiness, MigrationLedger ledger, BurstTimeline bursts,
                         OperatorActions actions, ObjectMapper json, DatabaseOutage outage) {
        this.outage = outage;
        this.flags = flags;
        this.readiness = readiness;
        this.ledger = ledger;
        this.bursts = bursts;
        this.actions = actions;
        this.json = json;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(response, () -> switch (path(request)) {
            case "/whoami" -> Map.of("operator", Operator.name());
            case "/flags" -> Map.of("flags", flags.states(),
                    "unmet", Map.of("incremental", flags.unmetPreconditions(Gate.INCREMENTAL)));
            case "/flags/history" -> flags.history(optionalGate(request.getParameter("gate")),
                    limit(request.getParameter("limit")));
            case "/migrations" -> migrations();
            case "/bursts" -> burstTimeline(request);
            case "/audit" -> jdbiAudit(limit(request.getParameter("limit")));
            default -> throw new OpsRefusal(404, "not_found", "no such admin API route");
        });
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(response, () -> {
            JsonNode body = body(request);
            return switch (path(request)) {
                case "/flags" -> actions.setFlag(Operator.name(), text(body, "gate"), text(body, "value"),
                        text(body, "reason"), text(body, "force"));
                case "/migrations/record" -> actions.recordMigration(Operator.name(), text(body, "id"), text(body, "reason"));
                case "/rollback" -> actions.rollback(Operator.name(), text(body, "dryRun"), text(body, "confirm"),
                        text(body, "reason"), text(body, "force"));
                default -> throw new OpsRefusal(404, "not_found", "no such admin API route");
            };
        });
    }

    private Object migrations() {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("ledger", ledger.ledger());
        view.put("pending", ledger.pending());
        view.put("indexes", readiness.indexes());
        view.put("builds", ledger.runningBuilds());
        view.put("rollbackTag", IncrementalSchema.ROLLBACK_TAG);
        view.put("rollbackTagPresent", ledger.tagExists(IncrementalSchema.ROLLBACK_TAG));
        view.put("incrementalChangesets", IncrementalSchema.CHANGESETS);
        return view;
    }

    private Object burstTimeline(HttpServletRequest request) {
        BurstTimeline.Window window = BurstTimeline.Window.parse(request.getParameter("window")).orElseThrow(
                () -> new OpsRefusal(400, "invalid_window", "window must be hour, day or week"));
        List<BurstDao.CommunityRow> communities = bursts.communities();
        String wanted = request.getParameter("community");
        long communityId;
        if (wanted == null || wanted.isBlank()) {
            communityId = communities.isEmpty() ? -1 : communities.get(0).id();
        } else {
            try {
                communityId = Long.parseLong(wanted.strip());
            } catch (NumberFormatException e) {
                throw new OpsRefusal(400, "invalid_community", "community must be a community id");
            }
        }
        BurstTimeline.Timeline timeline = bursts.timeline(communityId, window)
                .orElseThrow(() -> new OpsRefusal(404, "unknown_community", "no community " + wanted));
        return Map.of("communities", communities, "timeline", timeline);
    }

    private Object jdbiAudit(int limit) {
        return ledger.auditTrail(limit);
    }

    private static Optional<Gate> optionalGate(String name) {
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(FlagService.parseGate(name).orElseThrow(
                () -> new OpsRefusal(400, "unknown_gate", "no gate " + name)));
    }

    private static int limit(String value) {
        if (value == null || value.isBlank()) {
            return 100;
        }
        try {
            int limit = Integer.parseInt(value.strip());
            if (limit < 1 || limit > 1000) {
                throw new OpsRefusal(400, "invalid_limit", "limit must be between 1 and 1000");
            }
            return limit;
        } catch (NumberFormatException e) {
            throw new OpsRefusal(400, "invalid_limit", "limit must be a number");
        }
    }

    private static String path(HttpServletRequest request) {
        String path = request.getPathInfo();
        return path == null ? "/" : path;
    }

    private JsonNode body(HttpServletRequest request) throws IOException {
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            throw new OpsRefusal(415, "json_required", "send the body as application/json");
        }
        byte[] bytes = request.getInputStream().readNBytes(MAX_BODY + 1);
        if (bytes.length > MAX_BODY) {
            throw new OpsRefusal(413, "body_too_large", "the body is limited to " + MAX_BODY + " bytes");
        }
        try {
            JsonNode node = StrictJson.read(bytes);
            if (node == null || !node.isObject()) {
                throw new OpsRefusal(400, "invalid_json", "the body must be a JSON object");
            }
            return node;
        } catch (JacksonException e) {
            throw new OpsRefusal(400, "invalid_json", "the body is not valid JSON");
        }
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isValueNode()) {
            throw new OpsRefusal(400, "invalid_" + field, field + " must be a string or boolean");
        }
        return value.asText();
    }

    private interface Route {
        Object answer() throws IOException;
    }

    private void answer(HttpServletResponse response, Route route) throws IOException {
        Object body;
        int status = 200;
        try {
            body = route.answer();
        } catch (OpsRefusal refusal) {
            status = refusal.status();
            body = refusal.body();
        } catch (RuntimeException e) {
            if (DatabaseFaults.isUnreachable(e)) {
                int retryAfter = outage.turnedAway(e);
                response.setHeader("Retry-After", Integer.toString(retryAfter));
                send(response, 503, new OpsRefusal.Body("database_unavailable",
                        "the database is unreachable; retry after " + retryAfter + " s", List.of()));
                return;
            }
            LOG.error("Admin API request failed", e);
            status = 500;
            body = new OpsRefusal.Body("internal_error", "the request failed; see the relay's log", List.of());
        }
        send(response, status, body);
    }

    private void send(HttpServletResponse response, int status, Object body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        json.writeValue(response.getOutputStream(), body);
    }
}
