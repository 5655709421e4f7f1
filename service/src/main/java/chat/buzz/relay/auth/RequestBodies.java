package chat.buzz.relay.auth;

import chat.buzz.relay.web.BoundedBody;
import chat.buzz.relay.web.OutageReply;
import chat.buzz.relay.web.Refusal;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads a request body once, within the configured limit, and puts it back for the resource. */
public final class RequestBodies {
    private final int maxBytes;

    public RequestBodies(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Rejects early, from the declared length alone, before any signature work. */
    public void checkDeclaredLength(ContainerRequestContext request) {
        if (request.getLength() > maxBytes) {
            throw tooLarge();
        }
    }

    public byte[] buffer(ContainerRequestContext request) {
        if (!request.hasEntity()) {
            return new byte[0];
        }
        try (InputStream in = request.getEntityStream()) {
            byte[] body = BoundedBody.read(in, maxBytes).orElseThrow(this::tooLarge);
            request.setEntityStream(new ByteArrayInputStream(body));
            // Kept so that a request turned away by a database outage is answered in its route's shape.
            request.setProperty(OutageReply.BODY_ATTRIBUTE, body);
            return body;
        } catch (IOException e) {
            // A body cut short or badly chunked is the client's fault, and comes before any signature check.
            throw new WebApplicationException(
                    Refusal.bare(400, "request body could not be read").response());
        }
    }

    /**
     * Past the drained amount the rest of the body is never read, so the connection cannot carry another
     * request: saying so lets a keep-alive client open a new one instead of sending into a closed one.
     */
    private WebApplicationException tooLarge() {
        Response refusal = Refusal.bare(413, "request body larger than " + maxBytes + " bytes")
                .response();
        return new WebApplicationException(
                Response.fromResponse(refusal).header("Connection", "close").build());
    }
}
