package chat.buzz.relay.web;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/** The server's error handler, for what fails before a request reaches a context (a 431, say). */
public final class JsonErrorHandler extends ErrorHandler {
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
