package chat.buzz.relay.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** Talks to the admin port as an operator: bearer token plus the anti-CSRF header on mutations. */
public final class AdminClient {
    public static final String OLIVIA = "test-operator-token-olivia-0001";
    public static final String OMAR = "test-operator-token-omar-00002";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final String adminUrl;
    private final String token;

    public AdminClient(String adminUrl, String token) {
        this.adminUrl = adminUrl;
        this.token = token;
    }

    public record Reply(int status, String body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON (" + status + "): " + body, e);
            }
        }
    }

    public Reply get(String path) {
        return send(HttpRequest.newBuilder(URI.create(adminUrl + path))
                .header("Authorization", "Bearer " + token)
                .GET());
    }

    public Reply post(String path, Object body) {
        try {
            return send(HttpRequest.newBuilder(URI.create(adminUrl + path))
                    .header("Authorization", "Bearer " + token)
                    .header("X-Buzz-Operator", "1")
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** POST /tasks/{name} with form parameters, as the runbooks' curl does. */
    public Reply task(String name, Map<String, String> parameters) {
        String form = new LinkedHashMap<>(parameters)
                .entrySet().stream()
                        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                        .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(adminUrl + "/tasks/" + name))
                .header("Authorization", "Bearer " + token)
                .header("X-Buzz-Operator", "1")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    public Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
