package chat.buzz.relay.web;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** Framework errors (unknown route, wrong method, unsupported media type) keep the contract's JSON shape. */
@Provider
public final class WebApplicationExceptionMapper implements ExceptionMapper<WebApplicationException> {
    @Override
    public Response toResponse(WebApplicationException exception) {
        Response original = exception.getResponse();
        if (original.hasEntity() && MediaType.APPLICATION_JSON_TYPE.isCompatible(original.getMediaType())) {
            return original;
        }
        String reason = original.getStatusInfo().getReasonPhrase();
        Response.ResponseBuilder builder = Response.fromResponse(original)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new Refusal.Body(
                        reason == null ? "HTTP " + original.getStatus() : reason.toLowerCase(java.util.Locale.ROOT)));
        return builder.build();
    }
}
