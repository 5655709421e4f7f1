package chat.buzz.relay.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

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
