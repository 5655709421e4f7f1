package chat.buzz.relay.health;

import chat.buzz.relay.database.DatabaseOutage;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/**
 * Load-balancer probes on the application port: no token, no Host-based tenancy (probes often use
 * an address), and nothing in the answer but the verdict.
 */
public final class HealthServlet extends HttpServlet {
    public static final String READY_PATH = "/health/ready";
    public static final String LIVE_PATH = "/health/live";

    private final transient BooleanSupplier verdict;
    private final String yes;
    private final String no;

    private HealthServlet(BooleanSupplier verdict, String yes, String no) {
        this.verdict = verdict;
        this.yes = yes;
        this.no = no;
    }

    public static HealthServlet readiness(Readiness readiness) {
        return new HealthServlet(readiness::isReady, "ready", "not ready");
    }

    /** Answering at all is the proof: the process runs and its HTTP threads are not all stuck. */
    public static HealthServlet liveness() {
        return new HealthServlet(() -> true, "live", "not live");
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        String method = request.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            response.setStatus(405);
            response.setHeader("Allow", "GET, HEAD");
            write(response, method, "{\"error\":\"method not allowed\"}");
            return;
        }
        boolean ok = verdict.getAsBoolean();
        response.setStatus(ok ? 200 : 503);
        if (!ok) {
            // As every 503 of the relay: when to look again, jittered.
            response.setHeader("Retry-After", Integer.toString(DatabaseOutage.retryAfterSeconds()));
        }
        write(response, method, "{\"status\":\"" + (ok ? yes : no) + "\"}");
    }

    private static void write(HttpServletResponse response, String method, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setContentLength(bytes.length);
        if (!"HEAD".equals(method)) {
            response.getOutputStream().write(bytes);
        }
    }
}
