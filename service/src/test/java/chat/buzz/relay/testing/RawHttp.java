package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** One HTTP/1.1 exchange over a socket, for headers java.net.http refuses to set (Host). */
public final class RawHttp {
    private RawHttp() {}

    public static String exchange(String baseUrl, String request) throws IOException {
        return exchange(baseUrl, request, false);
    }

    /** Sends the request, then ends the connection's output: a body shorter than its Content-Length stays short. */
    public static String exchangeThenHangUp(String baseUrl, String request) throws IOException {
        return exchange(baseUrl, request, true);
    }

    /** The JSON body of a raw reply, after checking its status line and content type. */
    public static JsonNode jsonError(String reply, int status) throws IOException {
        assertThat(reply).startsWith("HTTP/1.1 " + status);
        int split = reply.indexOf("\r\n\r\n");
        String headers = reply.substring(0, split).toLowerCase(Locale.ROOT);
        assertThat(headers).as(reply).contains("content-type: application/json");
        return RelayClient.JSON.readTree(dechunk(headers, reply.substring(split + 4)));
    }

    /** Enough of chunked transfer coding for one small error body. */
    private static String dechunk(String headers, String body) {
        if (!headers.contains("transfer-encoding: chunked")) {
            return body;
        }
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                return out.toString();
            }
            out.append(body, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
    }

    private static String exchange(String baseUrl, String request, boolean hangUp) throws IOException {
        URI uri = URI.create(baseUrl);
        try (Socket socket = new Socket("127.0.0.1", uri.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            if (hangUp) {
                socket.shutdownOutput();
            }
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
