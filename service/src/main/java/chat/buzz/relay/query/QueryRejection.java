package chat.buzz.relay.query;

import chat.buzz.relay.web.Refusal;
import java.util.OptionalInt;

/** A bad /query request: 400 with {"error":"invalid: ..."}. */
public final class QueryRejection extends Refusal {
    public QueryRejection(String reason) {
        super(400, "invalid: " + reason, null, OptionalInt.empty());
    }
}
