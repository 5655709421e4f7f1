package chat.buzz.relay.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The body of an error that Jetty answers itself (a header too large, a request it cannot parse, an
 * unknown route on a servlet context): {"error": "..."}, whatever the client's Accept header says.
 */
final class JsonErrors {
    static final HttpField CONTENT_TYPE = new HttpField(HttpHeader.CONTENT_TYPE, "application/json");
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonErrors() {}

    static ByteBuffer body(int status) {
        String reason = HttpStatus.getMessage(status);
        String error = reason == null ? "HTTP " + status : reason.toLowerCase(Locale.ROOT);
        try {
            return ByteBuffer.wrap(
                    JSON.writeValueAsString(new Refusal.Body(error)).getBytes(StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a record of one string always serialises", e);
        }
    }

    static void write(Response response, int status, Callback callback) {
        response.getHeaders().put(CONTENT_TYPE);
        response.write(true, body(status), callback);
    }
}
