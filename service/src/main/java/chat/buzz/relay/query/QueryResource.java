package chat.buzz.relay.query;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.StrictJson;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.channelmeta.ChannelMetadataFilter;
import chat.buzz.relay.channelmeta.ChannelMetadataReads;
import chat.buzz.relay.web.OutageReply;
import chat.buzz.relay.web.Utf8;
import com.codahale.metrics.annotation.ExceptionMetered;
import com.codahale.metrics.annotation.Timed;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.CharacterCodingException;
import java.util.List;
import java.util.stream.Collectors;

/** POST /query: one filter object in an array; its "artifact" key chooses the mode, and without one it reads channel metadata. */
@Path("/query")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public final class QueryResource {
    private final CurrentReads current;
    private final IncrementalMode incremental;
    private final ChannelMetadataReads channelMetadata;

    public QueryResource(CurrentReads current, IncrementalMode incremental, ChannelMetadataReads channelMetadata) {
        this.current = current;
        this.incremental = incremental;
        this.channelMetadata = channelMetadata;
    }

    @POST
    @Timed
    @ExceptionMetered
    public Response query(@Auth Caller caller, byte[] body) {
        ObjectNode filter = singleFilter(body);
        JsonNode mode = filter.get("artifact");
        if (mode == null) {
            return channelMetadata(caller, filter);
        }
        if (!mode.isTextual()) {
            throw new QueryRejection("the filter needs \"artifact\": \"current\" or \"incremental\"");
        }
        return switch (mode.textValue()) {
            case "current" ->
                Response.ok(current.read(caller, CurrentFilter.parse(filter)), MediaType.APPLICATION_JSON_TYPE)
                        .build();
            case "incremental" -> incremental.read(caller, filter);
            default -> throw new QueryRejection("unknown artifact mode " + mode.textValue());
        };
    }

    private Response channelMetadata(Caller caller, ObjectNode filter) {
        ChannelMetadataFilter parsed;
        try {
            parsed = ChannelMetadataFilter.parse(filter, channelMetadata.relayPubkey());
        } catch (ChannelMetadataFilter.Invalid e) {
            throw new QueryRejection(e.getMessage());
        }
        List<Event> events = channelMetadata.read(caller.community().id(), caller.pubkey(), parsed);
        String body = events.stream().map(Event::toJson).collect(Collectors.joining(",", "[", "]"));
        return Response.ok(body, MediaType.APPLICATION_JSON_TYPE).build();
    }

    /** While the database is unavailable: the incremental mode's own code, or "unavailable: ..." for the rest. */
    public OutageReply outageReply() {
        return (body, retryAfterSeconds) -> isIncremental(body)
                ? incremental.databaseUnavailable(retryAfterSeconds)
                : CurrentUnavailable.database(retryAfterSeconds).response();
    }

    private boolean isIncremental(byte[] body) {
        try {
            return "incremental".equals(singleFilter(body).path("artifact").textValue());
        } catch (QueryRejection notAFilter) {
            return false;
        }
    }

    private ObjectNode singleFilter(byte[] body) {
        JsonNode request;
        try {
            request = StrictJson.read(Utf8.decodeStrict(body == null ? new byte[0] : body));
        } catch (CharacterCodingException e) {
            throw new QueryRejection("body is not valid UTF-8");
        } catch (JacksonException e) {
            throw new QueryRejection("body is not valid JSON");
        }
        if (request == null
                || !request.isArray()
                || request.size() != 1
                || !request.get(0).isObject()) {
            throw new QueryRejection("body must be a JSON array with exactly one filter object");
        }
        return (ObjectNode) request.get(0);
    }
}
