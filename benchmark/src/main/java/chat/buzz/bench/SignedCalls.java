package chat.buzz.bench;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmarks' one way to make a signed (NIP-98, PROTOCOL 2.1) request to one relay: the header
 * comes from the protocol module's {@link Nip98}, the call is timed from sending the request to the last
 * byte of the answer. Every benchmark builds its signed requests here.
 */
public final class SignedCalls {
    public static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final String baseUrl;

    public SignedCalls(String baseUrl) {
        this(
                baseUrl,
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build());
    }

    public SignedCalls(String baseUrl, HttpClient http) {
        this.baseUrl = baseUrl;
        this.http = http;
    }

    public HttpClient http() {
        return http;
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** An answer as read, never compared or hashed. */
    @SuppressWarnings("ArrayRecordComponent")
    public record Reply(int status, byte[] body, long nanos, long retryAfterSeconds) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public Reply expectOk(String what) {
            if (status != 200) {
                throw new IllegalStateException(
                        what + " answered " + status + ": " + new String(body, StandardCharsets.UTF_8));
            }
            return this;
        }
    }

    /** A signed {@code POST <path>}, built now (the auth event's time and nonce are fresh). */
    public HttpRequest request(NostrKeys keys, String path, String body) {
        return request(keys, path, body, System.currentTimeMillis() / 1000);
    }

    /**
     * A signed {@code POST <path>} whose auth event carries {@code createdAt}: a request signed ahead of
     * the time it is sent, valid while that is within the relay's ±60 s (PROTOCOL 2.1).
     */
    public HttpRequest request(NostrKeys keys, String path, String body, long createdAt) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Authorization", Nip98.authorizationHeader(keys, "POST", baseUrl + path, bytes, createdAt))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                .build();
    }

    /** The unsigned NIP-11 information document request (PROTOCOL 6), the one request without auth. */
    public HttpRequest information() {
        return HttpRequest.newBuilder(URI.create(baseUrl + "/"))
                .timeout(Duration.ofSeconds(60))
                .header("Accept", "application/nostr+json")
                .GET()
                .build();
    }

    public Reply post(NostrKeys keys, String path, String body) {
        return send(request(keys, path, body));
    }

    /** A request built by {@link #request}, sent and answered; timed from the send. */
    public Reply send(HttpRequest request) {
        long begin = System.nanoTime();
        try {
            return reply(http.send(request, HttpResponse.BodyHandlers.ofByteArray()), begin);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A request built by {@link #request}, sent without waiting: an open-loop generator keeps its schedule. */
    public CompletableFuture<Reply> sendAsync(HttpRequest request) {
        long begin = System.nanoTime();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(response -> reply(response, begin));
    }

    private static Reply reply(HttpResponse<byte[]> response, long begin) {
        long nanos = System.nanoTime() - begin;
        long retryAfter = response.headers()
                .firstValue("Retry-After")
                .map(Long::parseLong)
                .orElse(-1L);
        return new Reply(response.statusCode(), response.body(), nanos, retryAfter);
    }

    /** As a well-behaved client: a 503 with Retry-After is waited out and asked again; counted in refusals. */
    public Reply postHonouringRetryAfter(NostrKeys keys, String path, String body, AtomicLong refusals) {
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

    /** A {@code POST /query} body: the one filter in an array. */
    public static String query(String filterJson) {
        return "[" + filterJson + "]";
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
