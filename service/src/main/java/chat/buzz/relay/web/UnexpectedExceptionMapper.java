package chat.buzz.relay.web;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A bug still answers in JSON, with an id that finds the stack trace in the log. */
@Provider
public final class UnexpectedExceptionMapper implements ExceptionMapper<Throwable> {
    private static final Logger LOG = LoggerFactory.getLogger(UnexpectedExceptionMapper.class);

    @Override
    public Response toResponse(Throwable exception) {
        String incident = Long.toHexString(ThreadLocalRandom.current().nextLong());
        LOG.error("Unexpected error, incident {}", incident, exception);
        return ErrorBody.response(500, "internal error (incident " + incident + ")");
    }
}
