package chat.buzz.relay.testing;

import chat.buzz.protocol.Event;
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

/** Talks signed HTTP (NIP-98) to a relay, the way an outside client would. */
public final class RelayClient {
    public static final ObjectMapper JSON = new ObjectMapper();
    /**
     * One connection pool per client, not per JVM: a test that makes the relay drop a connection (a refused
     * oversized body, say) must not leave that connection pooled for the next test's first request.
     */
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;

    public RelayClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    public String baseUrl() {
        return baseUrl;
    }

    public Reply publish(NostrKeys keys, Event event) {
        return post(keys, "/events", event.toJson());
    }

    public Reply query(NostrKeys keys, String filterArrayJson) {
        return post(keys, "/query", filterArrayJson);
    }

    public Reply post(NostrKeys keys, String path, String body) {
        return post(keys, path, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Raw bytes, signed as they are: for bodies that are not valid UTF-8. */
    public Reply post(NostrKeys keys, String path, byte[] bytes) {
        String auth = Nip98.authorizationHeader(keys, "POST", baseUrl + path, bytes, System.currentTimeMillis() / 1000);
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path))
                .header("Authorization", auth)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes)));
    }

    public Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(
                    request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Reply(response.statusCode(), response.body(), response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(baseUrl + path));
    }

    /** An HTTP answer with its body parsed on demand. */
    public record Reply(int status, String body, HttpResponse<String> response) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (status " + status + "): " + body, e);
            }
        }

        public String message() {
            return json().path("message").asText();
        }

        public String error() {
            return json().path("error").asText();
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }
}
