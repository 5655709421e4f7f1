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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /** The rows of GET /api/instances: every relay instance this admin port knows of. */
    public List<JsonNode> instances() {
        Reply reply = get("/api/instances");
        if (reply.status() != 200) {
            throw new AssertionError("GET /api/instances answered " + reply.status() + ": " + reply.body());
        }
        List<JsonNode> all = new ArrayList<>();
        reply.json().get("instances").forEach(all::add);
        return all;
    }

    /** The row of GET /api/instances for {@code instanceId}, if it is listed. */
    public Optional<JsonNode> instance(String instanceId) {
        return instances().stream()
                .filter(i -> instanceId(i).equals(instanceId))
                .findFirst();
    }

    /** The instance id of a row of GET /api/instances, or of an instance in a flip's confirmation. */
    public static String instanceId(JsonNode instance) {
        return instance.has("report")
                ? instance.get("report").get("instanceId").asText()
                : instance.get("instanceId").asText();
    }

    /** POST /api/instances/forget, as an operator tidying the fleet view. */
    public Reply forgetInstance(String instanceId, String reason) {
        return post("/api/instances/forget", Map.of("instanceId", instanceId, "reason", reason));
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
