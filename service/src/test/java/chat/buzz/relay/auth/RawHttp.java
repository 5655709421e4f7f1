package chat.buzz.relay.auth;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** One HTTP/1.1 exchange over a socket, for headers java.net.http refuses to set (Host). */
final class RawHttp {
    private RawHttp() {}

    static String exchange(String baseUrl, String request) throws IOException {
        URI uri = URI.create(baseUrl);
        try (Socket socket = new Socket("127.0.0.1", uri.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
