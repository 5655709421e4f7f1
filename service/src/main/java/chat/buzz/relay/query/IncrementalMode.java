package chat.buzz.relay.query;

import chat.buzz.relay.auth.Caller;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.Response;

/** Mode "incremental" of POST /query (PROTOCOL 4.1–4.5). */
public interface IncrementalMode {
    Response read(Caller caller, ObjectNode filter);

    /** The mode's own 503 while the database is unavailable, with the given Retry-After. */
    Response databaseUnavailable(int retryAfterSeconds);
}
