package chat.buzz.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The admin API's routing answers as the console and the runbooks expect: JSON, never cached, its own 404. */
@IntegrationTest
class OpsApiRoutesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void answersAreJsonAndNeverCached() throws Exception {
        HttpResponse<String> flags = send("/api/flags", "GET", null, null);
        assertThat(flags.statusCode()).isEqualTo(200);
        assertThat(flags.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(flags.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/json");
        JsonNode body = JSON.readTree(flags.body());
        assertThat(body.get("flags").isArray()).isTrue();
        assertThat(body.get("unmet").get("incremental").isArray()).isTrue();
    }

    @Test
    void answersJsonWhateverTheClientAccepts() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + "/api/whoami"))
                .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                .header("Accept", "text/html")
                .GET()
                .build();
        HttpResponse<String> reply = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(reply.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(reply.body()).get("operator").asText()).isNotBlank();
    }

    @Test
    void unknownRoutesAndTheWrongOfGetOrPostAreTheApisOwn404() throws Exception {
        for (String[] route : new String[][] {
            {"GET", "/api/nothing-here"},
            {"POST", "/api/whoami"},
            {"GET", "/api/rollback"},
            {"POST", "/api/flags/history"}
        }) {
            HttpResponse<String> reply =
                    send(route[1], route[0], "application/json", route[0].equals("POST") ? "{}" : null);
            assertThat(reply.statusCode()).as(route[0] + " " + route[1]).isEqualTo(404);
            JsonNode body = JSON.readTree(reply.body());
            assertThat(body.get("error").asText()).isEqualTo("not_found");
            assertThat(body.get("message").asText()).isEqualTo("no such admin API route");
        }
    }

    @Test
    void otherMethodsAreNotAllowed() throws Exception {
        for (String method : new String[] {"DELETE", "PUT"}) {
            assertThat(send("/api/flags", method, null, null).statusCode())
                    .as(method)
                    .isEqualTo(405);
        }
    }

    @Test
    void aBodyThatIsNotJsonIsRefusedWithItsCode() throws Exception {
        HttpResponse<String> reply = send("/api/flags", "POST", "text/plain", "gate=sync");
        assertThat(reply.statusCode()).isEqualTo(415);
        assertThat(reply.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(reply.headers().firstValue("Content-Type").orElseThrow().replace(" ", ""))
                .isEqualToIgnoringCase("application/json;charset=utf-8");
        JsonNode body = JSON.readTree(reply.body());
        assertThat(body.get("error").asText()).isEqualTo("json_required");
        assertThat(body.get("missing").isArray()).isTrue();
    }

    private HttpResponse<String> send(String path, String method, String contentType, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(RELAY.adminUrl() + path))
                .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                .header("X-Buzz-Operator", "1")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        // A connection of its own: a route that answers without reading the body may close the connection
        // once it has answered, and a shared client could pick that connection for the next request.
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
