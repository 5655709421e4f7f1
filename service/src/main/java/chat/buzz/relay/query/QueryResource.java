package chat.buzz.relay.query;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.StrictJson;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.channelmeta.ChannelMetadataFilter;
import chat.buzz.relay.channelmeta.ChannelMetadataReads;
import chat.buzz.relay.channelmeta.MetadataRequest;
import chat.buzz.relay.database.ReadTransaction;
import chat.buzz.relay.web.OutageReply;
import chat.buzz.relay.web.Utf8;
import com.codahale.metrics.annotation.ExceptionMetered;
import com.codahale.metrics.annotation.Timed;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.auth.Auth;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * POST /query: an array of filter objects. One with an "artifact" key chooses the artifact mode and is alone;
 * without one they read channel metadata, several at once if asked.
 */
@Path("/query")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.WILDCARD)
public final class QueryResource {
    private final CurrentReads current;
    private final IncrementalMode incremental;
    private final ChannelMetadataReads channelMetadata;

    /** A metadata read that ran out of its budget is tried again this much later. */
    private static final int METADATA_RETRY_AFTER_SECONDS = 5;

    public QueryResource(CurrentReads current, IncrementalMode incremental, ChannelMetadataReads channelMetadata) {
        this.current = current;
        this.incremental = incremental;
        this.channelMetadata = channelMetadata;
    }

    @POST
    @Timed
    @ExceptionMetered
    public Response query(@Auth Caller caller, byte[] body) {
        ArrayNode filters = filters(body);
        if (isChannelMetadata(filters)) {
            return channelMetadata(caller, filters);
        }
        if (filters.size() != 1) {
            throw new QueryRejection("an artifact read (a filter with \"artifact\") has exactly one filter");
        }
        ObjectNode filter = (ObjectNode) filters.get(0);
        JsonNode mode = filter.get("artifact");
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

    /** No filter has an {@code artifact} key: a channel-metadata read (PROTOCOL 4.6), which may have several. */
    private static boolean isChannelMetadata(ArrayNode filters) {
        for (JsonNode filter : filters) {
            if (filter.has("artifact")) {
                return false;
            }
        }
        return true;
    }

    private Response channelMetadata(Caller caller, ArrayNode filters) {
        MetadataRequest request;
        try {
            List<JsonNode> list = new ArrayList<>();
            filters.forEach(list::add);
            request = MetadataRequest.parse(list, channelMetadata.relayPubkey());
        } catch (ChannelMetadataFilter.Invalid e) {
            throw new QueryRejection(e.getMessage());
        }
        List<Event> events;
        try {
            events = channelMetadata.read(caller.community().id(), caller.pubkey(), request);
        } catch (ReadTransaction.OverBudget e) {
            throw CurrentUnavailable.timeout(METADATA_RETRY_AFTER_SECONDS);
        }
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
            ArrayNode filters = filters(body);
            return filters.size() == 1
                    && "incremental".equals(filters.get(0).path("artifact").textValue());
        } catch (QueryRejection notAFilter) {
            return false;
        }
    }

    /** The body: a JSON array of filter objects, at least one. */
    private static ArrayNode filters(byte[] body) {
        JsonNode request;
        try {
            request = StrictJson.read(Utf8.decodeStrict(body == null ? new byte[0] : body));
        } catch (CharacterCodingException e) {
            throw new QueryRejection("body is not valid UTF-8");
        } catch (JacksonException e) {
            throw new QueryRejection("body is not valid JSON");
        }
        if (request == null || !request.isArray() || request.isEmpty()) {
            throw new QueryRejection("body must be a JSON array of filter objects: exactly one for an artifact read,"
                    + " 1.." + Limits.CHANNEL_METADATA_MAX_FILTERS + " for channel metadata");
        }
        for (JsonNode filter : request) {
            if (!filter.isObject()) {
                throw new QueryRejection("body must be a JSON array of filter objects: exactly one for an artifact"
                        + " read, 1.." + Limits.CHANNEL_METADATA_MAX_FILTERS + " for channel metadata");
            }
        }
        return (ArrayNode) request;
    }
}
