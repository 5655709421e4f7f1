package chat.buzz.relay.query;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.web.Refusal;
import java.util.OptionalInt;

/** A bad /query request: 400 with {"error":"invalid: ..."}. */
public final class QueryRejection extends Refusal {
    public QueryRejection(String reason) {
        super(400, ErrorCodes.INVALID_PREFIX + reason, null, OptionalInt.empty());
    }
}
