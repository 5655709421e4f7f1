package chat.buzz.relay.web;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The JSON error body of the contract: {"error": "..."}. */
public record ErrorBody(String error) {

    public static Response response(int status, String error) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorBody(error))
                .build();
    }
}
