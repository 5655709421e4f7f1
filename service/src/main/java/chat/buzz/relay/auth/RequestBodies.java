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

    /**
     * Rejects early, from the declared length alone, before any signature work. A client that asked
     * for {@code 100 Continue} has sent no body and hears the refusal at once. Any other client is
     * sending the body: closing on it unread would reset the connection, and the client would report
     * the reset instead of the 413, so a body within the drained bound is read and thrown away first.
     */
    public void checkDeclaredLength(ContainerRequestContext request) {
        long declared = request.getLength();
        if (declared <= maxBytes) {
            return;
        }
        if (!waitsForContinue(request) && declared <= (long) maxBytes + BoundedBody.DRAINED_BEYOND_LIMIT) {
            try (InputStream in = request.getEntityStream()) {
                BoundedBody.discard(in, declared);
            } catch (IOException e) {
                // The client went away mid-body; it is refused all the same.
            }
        }
        throw tooLarge();
    }

    private static boolean waitsForContinue(ContainerRequestContext request) {
        String expect = request.getHeaderString("Expect");
        return expect != null && expect.trim().equalsIgnoreCase("100-continue");
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
