package chat.buzz.relay.events;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.Event;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.auth.RecordsReplayToken;
import chat.buzz.relay.auth.ReplayToken;
import chat.buzz.relay.web.OutageReply;
import chat.buzz.relay.web.Utf8;
import com.codahale.metrics.annotation.ExceptionMetered;
import com.codahale.metrics.annotation.Timed;
import io.dropwizard.auth.Auth;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.CharacterCodingException;

@Path("/events")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public final class EventsResource {
    private final EventWriter writer;
    private final WriteOutcomes outcomes;

    EventsResource(EventWriter writer, WriteOutcomes outcomes) {
        this.writer = writer;
        this.outcomes = outcomes;
    }

    @POST
    @Timed
    @ExceptionMetered
    @RecordsReplayToken
    public Response publish(@Auth Caller caller, @Context ContainerRequestContext request, byte[] body) {
        WriteResult result = writer.write(caller, ReplayToken.of(request), body == null ? new byte[0] : body);
        outcomes.count(result.reply());
        Response.ResponseBuilder response = Response.status(result.status()).entity(result.reply());
        result.retryAfterSeconds().ifPresent(seconds -> response.header("Retry-After", seconds));
        return response.build();
    }

    /** While the database is unavailable: the write reply of PROTOCOL 3, not accepted, "unavailable: ...". */
    public static OutageReply outageReply() {
        return (body, retryAfterSeconds) -> Response.status(503)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .header("Retry-After", retryAfterSeconds)
                .entity(new EventReply(
                        eventIdOf(body), false, ErrorCodes.UNAVAILABLE_PREFIX + OutageReply.reason(retryAfterSeconds)))
                .build();
    }

    private static String eventIdOf(byte[] body) {
        try {
            return Event.parse(Utf8.decodeStrict(body)).id();
        } catch (CharacterCodingException | RuntimeException unreadable) { // MalformedEventException among them
            return null;
        }
    }
}
