package chat.buzz.client;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One relay over HTTP: NIP-98 signed {@code POST /query} and {@code POST /events} (every auth event
 * carries a random nonce, PROTOCOL 2.1) and the unsigned information document. Each call is one
 * attempt; non-success answers become {@link RelayError}s with the relay's code and Retry-After.
 */
public final class SignedHttp {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final String baseUrl;
    private final NostrKeys keys;
    private final HttpClient http;
    private volatile boolean answered;

    /** @param baseUrl {@code http(s)://host[:port]}; its host selects the community */
    public SignedHttp(String baseUrl, NostrKeys keys) {
        this.baseUrl = checkedUrl(baseUrl);
        this.keys = keys;
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** The base URL without a trailing slash; a URL without an http(s) scheme or host is refused up front. */
    public static String checkedUrl(String url) {
        String trimmed = url.replaceAll("/+$", "");
        URI uri = null;
        try {
            uri = new URI(trimmed);
        } catch (URISyntaxException notAUri) {
            // explained below, with the same words as a URI without a scheme
        }
        boolean web = uri != null
                && uri.getHost() != null
                && ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()));
        if (!web) {
            String hint = trimmed.contains("://") ? "" : " (add the scheme: http://" + trimmed + ")";
            throw new IllegalArgumentException(
                    "relay URL must look like https://relay.example.com, not '" + url + "'" + hint);
        }
        return trimmed;
    }

    public String baseUrl() {
        return baseUrl;
    }

    public NostrKeys keys() {
        return keys;
    }

    /** POST /query with one filter; the parsed 200 body. */
    public JsonNode query(JsonNode filter) {
        String body = JSON.createArrayNode().add(filter).toString();
        HttpResponse<String> response = signedPost("/query", body);
        if (response.statusCode() != 200) {
            throw error(response);
        }
        return parse(response);
    }

    /** POST /events; the relay's reply whether accepted or not, errors other than a refusal thrown. */
    public WriteReply publish(Event event) {
        HttpResponse<String> response = signedPost("/events", event.toJson());
        int status = response.statusCode();
        if (status == 200 || status == 400 || status == 403 || status == 409) {
            JsonNode body = parse(response);
            if (body.has("accepted")) {
                return new WriteReply(
                        status,
                        body.path("event_id").asText(),
                        body.path("accepted").asBoolean(),
                        body.path("message").asText());
            }
        }
        throw error(response);
    }

    /** GET / as NIP-11 (PROTOCOL 6). */
    public JsonNode information() {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/"))
                .timeout(TIMEOUT)
                .header("Accept", "application/nostr+json")
                .GET()
                .build();
        HttpResponse<String> response = send(request, "GET /");
        if (response.statusCode() != 200) {
            throw error(response);
        }
        return parse(response);
    }

    private HttpResponse<String> signedPost(String path, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String url = baseUrl + path;
        String authorization = Nip98.authorizationHeader(keys, "POST", url, bytes, System.currentTimeMillis() / 1000);
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(TIMEOUT)
                .header("Authorization", authorization)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                .build();
        return send(request, "POST " + path);
    }

    private HttpResponse<String> send(HttpRequest request, String what) {
        try {
            HttpResponse<String> response =
                    http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            answered = true;
            return response;
        } catch (IOException e) {
            // A relay that never answered is most likely a wrong URL or a relay not started: say so at once
            // instead of retrying; one that answered before and went away is worth waiting for.
            throw answered
                    ? RelayError.unreachable(what + " to " + baseUrl, e)
                    : RelayError.neverReached(what + " to " + baseUrl, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RelayError.unreachable(what + " to " + baseUrl, e);
        }
    }

    private static JsonNode parse(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new ProtocolViolation(
                    "the relay answered " + response.statusCode() + " with a body that is not JSON");
        }
    }

    /** Incremental errors are {error, message} (the TTL refusal adds its channel); NIP-98 and tenancy errors {error}; writes {message}. */
    private static RelayError error(HttpResponse<String> response) {
        Duration retryAfter = response.headers()
                .firstValue("Retry-After")
                .flatMap(SignedHttp::seconds)
                .orElse(null);
        String code = "http_" + response.statusCode();
        String message = response.body();
        String channel = null;
        try {
            JsonNode body = JSON.readTree(response.body());
            if (body != null && body.isObject()) {
                if (body.hasNonNull(ErrorCodes.ERROR_FIELD)) {
                    code = body.get(ErrorCodes.ERROR_FIELD).asText();
                }
                message = body.hasNonNull(ErrorCodes.MESSAGE_FIELD)
                        ? body.get(ErrorCodes.MESSAGE_FIELD).asText()
                        : code;
                if (body.path(ErrorCodes.CHANNEL_FIELD).isTextual()) {
                    channel = body.get(ErrorCodes.CHANNEL_FIELD).asText();
                }
            }
        } catch (IOException notJson) {
            // keep the raw body as the message: it is what the operator will need to see
        }
        return new RelayError(response.statusCode(), code, message, retryAfter, channel);
    }

    private static java.util.Optional<Duration> seconds(String header) {
        try {
            long value = Long.parseLong(header.trim());
            return value < 0 ? java.util.Optional.empty() : java.util.Optional.of(Duration.ofSeconds(value));
        } catch (NumberFormatException httpDate) {
            return java.util.Optional.empty();
        }
    }

    /** PROTOCOL 3: {@code status} 200 accepted or duplicate, 400 invalid, 403 blocked, 409 conflict. */
    public record WriteReply(int status, String eventId, boolean accepted, String message) {}
}
