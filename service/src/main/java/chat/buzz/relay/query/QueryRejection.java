package chat.buzz.relay.query;

import chat.buzz.relay.web.ErrorBody;
import jakarta.ws.rs.WebApplicationException;

/** A bad /query request: 400 with {"error":"invalid: ..."}. */
public final class QueryRejection extends WebApplicationException {
    public QueryRejection(String reason) {
        super(ErrorBody.response(400, "invalid: " + reason));
    }
}
