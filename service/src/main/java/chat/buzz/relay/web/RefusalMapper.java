package chat.buzz.relay.web;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Answers every {@link Refusal}, on the application port and on the admin API alike. */
@Provider
public final class RefusalMapper implements ExceptionMapper<Refusal> {
    @Override
    public Response toResponse(Refusal refusal) {
        return refusal.response();
    }
}
