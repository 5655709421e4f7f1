package chat.buzz.relay.events;

import chat.buzz.relay.auth.Caller;
import com.codahale.metrics.annotation.Timed;
import io.dropwizard.auth.Auth;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

@Path("/events")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public final class EventsResource {
    private final EventWriter writer;

    public EventsResource(EventWriter writer) {
        this.writer = writer;
    }

    @POST
    @Timed
    public Response publish(@Auth Caller caller, byte[] body) {
        WriteResult result = writer.write(caller, body == null ? new byte[0] : body);
        Response.ResponseBuilder response = Response.status(result.status()).entity(result.reply());
        result.retryAfterSeconds().ifPresent(seconds -> response.header("Retry-After", seconds));
        return response.build();
    }
}
