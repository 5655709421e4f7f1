package chat.buzz.bench.scale;

import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Signed (NIP-98) POSTs to one relay, timed from sending the request to the last byte of the answer. */
final class SignedCalls {
    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    SignedCalls(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    HttpClient http() {
        return http;
    }

    String baseUrl() {
        return baseUrl;
    }

    // An answer as read, never compared or hashed.
    @SuppressWarnings("ArrayRecordComponent")
    record Reply(int status, byte[] body, long nanos, long retryAfterSeconds) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Reply expectOk(String what) {
            if (status != 200) {
                throw new IllegalStateException(
                        what + " answered " + status + ": " + new String(body, StandardCharsets.UTF_8));
            }
            return this;
        }
    }

    Reply post(NostrKeys keys, String path, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(60))
                .header(
                        "Authorization",
                        Nip98.authorizationHeader(
                                keys, "POST", baseUrl + path, bytes, System.currentTimeMillis() / 1000))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                .build();
        long begin = System.nanoTime();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            long nanos = System.nanoTime() - begin;
            long retryAfter = response.headers()
                    .firstValue("Retry-After")
                    .map(Long::parseLong)
                    .orElse(-1L);
            return new Reply(response.statusCode(), response.body(), nanos, retryAfter);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** As a well-behaved client: a 503 with Retry-After is waited out and asked again; counted in refusals. */
    Reply postHonouringRetryAfter(
            NostrKeys keys, String path, String body, java.util.concurrent.atomic.AtomicLong refusals) {
        while (true) {
            Reply reply = post(keys, path, body);
            if (reply.status() != 503 || reply.retryAfterSeconds() < 0) {
                return reply;
            }
            refusals.incrementAndGet();
            try {
                Thread.sleep(reply.retryAfterSeconds() * 1000); // the relay's instruction, not a race
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    static String query(String filterJson) {
        return "[" + filterJson + "]";
    }
}
