package chat.buzz.relay.info;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * NIP-11's {@code version} is the version Maven stamped into this build (build.properties, from the
 * pom), the same one the instance's heartbeat shows in the fleet view: never a placeholder.
 */
@IntegrationTest
class InformationVersionTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    @Test
    void nip11NamesTheBuildsVersionAsTheFleetViewDoes() throws Exception {
        Properties stamped = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/chat/buzz/relay/fleet/build.properties")) {
            stamped.load(in);
        }
        String built = stamped.getProperty("version");
        assertThat(built).as("Maven filtered build.properties").matches("\\d+\\.\\d+\\.\\d+.*");

        HttpResponse<String> info = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(RELAY.baseUrl() + "/"))
                                .header("Accept", "application/nostr+json")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(info.statusCode()).as(info.body()).isEqualTo(200);
        assertThat(new ObjectMapper().readTree(info.body()).path("version").asText())
                .isEqualTo(built);

        JsonNode self = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> RELAY.admin().instances().stream()
                                .filter(i -> i.get("self").asBoolean())
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
        assertThat(self.path("report").path("version").asText()).isEqualTo(built);
    }
}
