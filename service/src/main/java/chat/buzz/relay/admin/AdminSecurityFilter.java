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
import java.util.OptionalLong;
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
 * An {@code Origin} or {@code Sec-Fetch-Site} that names another site is refused outright, and so is a
 * mutating request without {@code Origin} whose {@code Referer} names another site (older browsers and
 * some form posts send only the Referer).
 *
 * <p>Wrong tokens are counted per client address; past {@value WrongTokenThrottle#LIMIT} a minute
 * they are answered 429 with Retry-After, while a right token is always served ({@link
 * WrongTokenThrottle}).
 */
public final class AdminSecurityFilter implements Filter {
    public static final String CSRF_HEADER = "X-Buzz-Operator";
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final String CONSOLE_PREFIX = "/console";
    public static final String PROMETHEUS_PATH = "/metrics/prometheus";

    private final OperatorTokens tokens;
    private final WrongTokenThrottle wrongTokens = new WrongTokenThrottle();

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
        if (crossSite(request) || (!safe && foreignReferer(request))) {
            refuse(response, 403, "admin_cross_site", "cross-site requests to the admin port are refused");
            return;
        }
        Optional<String> presented = bearer(request);
        Optional<String> operator = presented.flatMap(tokens::operatorFor);
        if (operator.isEmpty()
                && safe
                && isScrape(request)
                && presented.filter(tokens::isMetricsToken).isPresent()) {
            chain.doFilter(request, response);
            return;
        }
        if (operator.isEmpty() && presented.isPresent()) {
            OptionalLong retryAfter = wrongTokens.failed(request.getRemoteAddr());
            if (retryAfter.isPresent()) {
                response.setHeader("Retry-After", Long.toString(retryAfter.getAsLong()));
                refuse(
                        response,
                        429,
                        "admin_throttled",
                        "too many wrong operator tokens from your address; retry after the seconds in Retry-After");
                return;
            }
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
        return !namesThisHost(origin, request);
    }

    /**
     * A Referer counts only when Origin is absent: a browser that sends an Origin said it already. An
     * absent Referer is no evidence either way (privacy settings strip it); the CSRF header still holds.
     */
    static boolean foreignReferer(HttpServletRequest request) {
        String referer = request.getHeader("Referer");
        return request.getHeader("Origin") == null && referer != null && !namesThisHost(referer, request);
    }

    /** Whether a URL's authority is the admin host the request was sent to; anything unparsable is not. */
    private static boolean namesThisHost(String url, HttpServletRequest request) {
        String host = request.getHeader("Host");
        try {
            URI uri = new URI(url);
            if (uri.getHost() == null || host == null) {
                return false;
            }
            String authority = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            return authority.equalsIgnoreCase(host);
        } catch (URISyntaxException e) {
            return false;
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
