package chat.buzz.relay.health;

import chat.buzz.relay.database.DatabaseOutage;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * Dropwizard answers /healthcheck 500 when any check is unhealthy. While the database, or the replay
 * guard's Redis, is what fails, the answer is 503 with a Retry-After instead, as every other route answers then: still "not 200", which is
 * all a monitor reads as unhealthy, and it tells a database outage from a bug at a glance.
 */
final class HealthStatusFilter implements Filter {
    static final String PATH = "/healthcheck";

    private final DatabaseHealthCheck database;
    private final BooleanSupplier replayGuardRecords;

    HealthStatusFilter(DatabaseHealthCheck database, BooleanSupplier replayGuardRecords) {
        this.database = database;
        this.replayGuardRecords = replayGuardRecords;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!(response instanceof HttpServletResponse http)) {
            chain.doFilter(request, response);
            return;
        }
        chain.doFilter(request, new HttpServletResponseWrapper(http) {
            @Override
            public void setStatus(int status) {
                if (status == HttpServletResponse.SC_INTERNAL_SERVER_ERROR
                        && (database.lastFault().isPresent() || !replayGuardRecords.getAsBoolean())) {
                    super.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
                    super.setHeader("Retry-After", Integer.toString(DatabaseOutage.retryAfterSeconds()));
                    return;
                }
                super.setStatus(status);
            }
        });
    }
}
