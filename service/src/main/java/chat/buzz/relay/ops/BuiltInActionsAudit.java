package chat.buzz.relay.ops;

import chat.buzz.relay.admin.Operator;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dropwizard's own operator actions on the admin port (the {@code gc} and {@code log-level} tasks and
 * the {@code /pprof} profiles) go into the operator audit like the relay's own: who, when, what, and
 * how it ended. It runs behind the admin security filter, so the operator is known.
 */
final class BuiltInActionsAudit implements Filter {
    /** The admin paths this filter is mapped to. */
    static final List<String> PATHS = List.of("/tasks/gc", "/tasks/log-level", "/pprof", "/pprof/*");

    private static final Logger LOG = LoggerFactory.getLogger(BuiltInActionsAudit.class);
    private static final int MAX_DETAIL = 2000;

    private final MigrationLedger audit;

    BuiltInActionsAudit(MigrationLedger audit) {
        this.audit = audit;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String operator = Operator.name();
        String action = action(request);
        try {
            chain.doFilter(request, response);
        } finally {
            // Read after the action ran, so the parameters of a form body were parsed by the task first.
            String detail = parameters(request);
            try {
                audit.audit(
                        operator,
                        action,
                        request.getMethod() + " " + request.getRequestURI(),
                        String.valueOf(response.getStatus()),
                        detail);
            } catch (RuntimeException e) {
                // The action already happened; an audit that cannot be stored is at least in the log.
                LOG.error("Could not audit {} by {} ({})", action, operator, detail, e);
            }
        }
    }

    private static String action(HttpServletRequest request) {
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        return path.startsWith("/tasks/") ? path.substring("/tasks/".length()) : "pprof";
    }

    private static String parameters(HttpServletRequest request) {
        Map<String, List<String>> sorted = new TreeMap<>();
        request.getParameterMap().forEach((name, values) -> sorted.put(name, List.of(values)));
        String text = sorted.toString().replace('\u0000', ' ');
        return text.length() > MAX_DETAIL ? text.substring(0, MAX_DETAIL) : text;
    }
}
