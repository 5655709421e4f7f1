package chat.buzz.relay.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/** GET /api/instances on the admin port (behind the operator token like every admin route). */
public final class InstancesServlet extends HttpServlet {
    public static final String PATH = "/api/instances";

    private final transient Fleet fleet;
    private final transient ObjectMapper json;

    public InstancesServlet(Fleet fleet, ObjectMapper json) {
        this.fleet = fleet;
        this.json = json;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        json.writeValue(
                response.getOutputStream(),
                Map.of(
                        "heartbeatSeconds",
                        fleet.heartbeat().toMillis() / 1000.0,
                        "staleAfterMissedBeats",
                        Fleet.MISSED_BEATS_BEFORE_STALE,
                        "instances",
                        fleet.instances()));
    }
}
