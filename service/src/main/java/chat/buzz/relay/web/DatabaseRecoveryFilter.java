package chat.buzz.relay.web;

import chat.buzz.relay.database.DatabaseOutage;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Tells the outage when a request that used the database was answered without a server error, which is
 * how an outage ends (on both ports: a relay that only serves operators still notices the database back).
 */
public final class DatabaseRecoveryFilter implements Filter {
    private final DatabaseOutage outage;

    public DatabaseRecoveryFilter(DatabaseOutage outage) {
        this.outage = outage;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        outage.beginWork();
        boolean answered = false;
        try {
            chain.doFilter(request, response);
            answered = !(response instanceof HttpServletResponse http) || http.getStatus() < 500;
        } finally {
            outage.endWork(answered);
        }
    }
}
