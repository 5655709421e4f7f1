package chat.buzz.relay.admin;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;

/**
 * Guards the whole admin port: tasks (Dropwizard's own log-level and gc included), the JSON API,
 * health checks and metrics all need an operator's bearer token. The one thing the read-only metrics
 * token opens is a Prometheus scrape ({@value #PROMETHEUS_PATH}).
 *
 * <p>The console's static files are the one exception: a browser navigating to a page cannot attach
 * a header, and the files hold no data. Every figure they show comes through the token-guarded API.
 *
 * <p>Mutating requests must also carry {@value #CSRF_HEADER}: a cross-site form or image cannot set a
 * custom header, and a cross-site fetch that does would need a CORS preflight this port never grants.
 * An {@code Origin} or {@code Sec-Fetch-Site} that names another site is refused outright.
 */
public final class AdminSecurityFilter implements Filter {
    public static final String CSRF_HEADER = "X-Buzz-Operator";
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final String CONSOLE_PREFIX = "/console";
    public static final String PROMETHEUS_PATH = "/metrics/prometheus";

    private final OperatorTokens tokens;

    public AdminSecurityFilter(OperatorTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        boolean safe = SAFE_METHODS.contains(request.getMethod());
        if (safe && isConsoleAsset(request)) {
            chain.doFilter(request, response);
            return;
        }
        if (crossSite(request)) {
            refuse(response, 403, "admin_cross_site", "cross-site requests to the admin port are refused");
            return;
        }
        Optional<String> token = bearer(request);
        Optional<String> operator = token.flatMap(tokens::operatorFor);
        if (operator.isEmpty()
                && safe
                && isScrape(request)
                && token.filter(tokens::isMetricsToken).isPresent()) {
            chain.doFilter(request, response);
            return;
        }
        if (operator.isEmpty()) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"buzz-admin\"");
            refuse(
                    response,
                    401,
                    "admin_unauthorized",
                    "an operator token (or, for " + PROMETHEUS_PATH + ", the metrics token) is required: "
                            + "Authorization: Bearer <token>");
            return;
        }
        if (!safe && !"1".equals(request.getHeader(CSRF_HEADER))) {
            refuse(response, 403, "admin_csrf", "mutating admin requests need the header " + CSRF_HEADER + ": 1");
            return;
        }
        Operator.enter(operator.get(), response);
        try {
            chain.doFilter(request, response);
        } finally {
            Operator.leave();
        }
    }

    /**
     * Decided on the servlet the request was routed to, not on the raw URI: a raw
     * "/console/../api/..." starts with the console prefix but is routed to the API.
     */
    private static boolean isConsoleAsset(HttpServletRequest request) {
        return CONSOLE_PREFIX.equals(request.getServletPath());
    }

    private static boolean isScrape(HttpServletRequest request) {
        return PROMETHEUS_PATH.equals(request.getServletPath()) && request.getPathInfo() == null;
    }

    private static Optional<String> bearer(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        String token = header.substring(7).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }

    /** An Origin must be this admin host itself; browsers also say outright when a request is cross-site. */
    static boolean crossSite(HttpServletRequest request) {
        String fetchSite = request.getHeader("Sec-Fetch-Site");
        if ("cross-site".equalsIgnoreCase(fetchSite) || "same-site".equalsIgnoreCase(fetchSite)) {
            return true;
        }
        String origin = request.getHeader("Origin");
        if (origin == null) {
            return false;
        }
        String host = request.getHeader("Host");
        try {
            URI uri = new URI(origin);
            if (uri.getHost() == null || host == null) {
                return true;
            }
            String authority = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            return !authority.equalsIgnoreCase(host);
        } catch (URISyntaxException e) {
            return true;
        }
    }

    private static void refuse(HttpServletResponse response, int status, String error, String message)
            throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write("{\"error\":\"" + error + "\",\"message\":\"" + message + "\"}");
    }
}
