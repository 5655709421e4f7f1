package chat.buzz.relay.web;

import java.nio.ByteBuffer;
import org.eclipse.jetty.ee10.servlet.ErrorHandler;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** A servlet context's error handler (application and admin): sendError and unknown routes answer JSON. */
public final class JsonServletErrorHandler extends ErrorHandler {
    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback) {
        JsonErrors.write(response, code, callback);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(JsonErrors.CONTENT_TYPE);
        return JsonErrors.body(status);
    }
}
