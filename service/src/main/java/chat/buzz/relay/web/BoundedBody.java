package chat.buzz.relay.web;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * Reads a request body up to a limit. A body over the limit is read on, and thrown away, up to a
 * further bounded amount: a server that answers 413 and closes while the client is still sending
 * resets the connection, and many clients (java.net.http among them) then report the reset instead
 * of the answer. Past that amount the connection is closed anyway.
 */
public final class BoundedBody {
    /** How much of an oversized body is read and discarded so that its 413 reaches the sender. */
    public static final int DRAINED_BEYOND_LIMIT = 1024 * 1024;

    private BoundedBody() {}

    /** The body, or empty when it is longer than {@code maxBytes}. */
    public static Optional<byte[]> read(InputStream in, int maxBytes) throws IOException {
        byte[] body = in.readNBytes(maxBytes + 1);
        if (body.length <= maxBytes) {
            return Optional.of(body);
        }
        discard(in, DRAINED_BEYOND_LIMIT);
        return Optional.empty();
    }

    /** Reads and throws away up to {@code bytes} of {@code in}, or to its end. */
    public static void discard(InputStream in, long bytes) throws IOException {
        long drained = 0;
        byte[] sink = new byte[8192];
        int read;
        while (drained < bytes && (read = in.read(sink, 0, (int) Math.min(sink.length, bytes - drained))) >= 0) {
            drained += read;
        }
    }
}
