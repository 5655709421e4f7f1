package chat.buzz.relay.fleet;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Counts the application port's requests and its 503s, for the fleet view's sparklines. */
public final class TrafficCounter implements Filter {
    static final String REQUESTS = "buzz.fleet.requests";
    static final String UNAVAILABLE = "buzz.fleet.unavailable";

    private final Counter requests;
    private final Counter unavailable;

    public TrafficCounter(MetricRegistry metrics) {
        this.requests = metrics.counter(REQUESTS);
        this.unavailable = metrics.counter(UNAVAILABLE);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        requests.inc();
        try {
            chain.doFilter(request, response);
        } finally {
            if (response instanceof HttpServletResponse http && http.getStatus() == 503) {
                unavailable.inc();
            }
        }
    }
}
