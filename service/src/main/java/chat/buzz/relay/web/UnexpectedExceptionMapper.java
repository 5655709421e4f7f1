package chat.buzz.relay.web;

import chat.buzz.relay.database.DatabaseFaults;
import chat.buzz.relay.database.DatabaseOutage;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A database outage, or one of another store a request needs ({@link DependencyUnavailable}), answers 503 with a Retry-After in each route's own shape, logged once per outage;
 * anything else is a bug, and still answers in JSON, with an id that finds the stack trace in the log.
 */
@Provider
public final class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {
    private static final Logger LOG = LoggerFactory.getLogger(UnexpectedExceptionMapper.class);

    private final DatabaseOutage outage;
    private final Map<String, OutageReply> outageReplies;

    @Context
    private HttpServletRequest request;

    /** @param outageReplies by request path ("/query"); other paths get {@link OutageReply#plain} */
    public UnexpectedExceptionMapper(DatabaseOutage outage, Map<String, OutageReply> outageReplies) {
        this.outage = outage;
        this.outageReplies = Map.copyOf(outageReplies);
    }

    @Override
    public Response toResponse(Throwable exception) {
        if (exception instanceof DependencyUnavailable unavailable) {
            // Logged where it was thrown; the database's outage is not this one.
            return outageReply(unavailable.retryAfterSeconds());
        }
        if (DatabaseFaults.isFault(exception)) {
            return outageReply(outage.turnedAway(exception));
        }
        String incident = Long.toHexString(ThreadLocalRandom.current().nextLong());
        LOG.error("Unexpected error, incident {}", incident, exception);
        return Refusal.bare(500, "internal error (incident " + incident + ")").response();
    }

    private Response outageReply(int retryAfter) {
        OutageReply reply = outageReplies.get(request.getRequestURI());
        if (reply == null) {
            return OutageReply.plain(retryAfter);
        }
        return reply.reply(
                request.getAttribute(OutageReply.BODY_ATTRIBUTE) instanceof byte[] body ? body : new byte[0],
                retryAfter);
    }
}
