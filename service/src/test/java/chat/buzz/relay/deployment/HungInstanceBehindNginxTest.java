package chat.buzz.relay.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.NginxProxy;
import chat.buzz.relay.testing.RelayProcess;
import chat.buzz.relay.testing.TestRelay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shipped nginx site in front of two instances, one of them frozen by SIGSTOP (it still accepts
 * TCP connections from its backlog, so only a timeout notices it): plain requests, POST included, are
 * answered by the other instance within a few seconds instead of the WebSocket-length timeout.
 */
@IntegrationTest
class HungInstanceBehindNginxTest {
    /** The site's plain-request timeout (5 s) plus the retry on the healthy instance, with room for a slow machine. */
    private static final Duration FAILOVER = Duration.ofSeconds(15);

    @RegisterExtension
    static final TestRelay HEALTHY = TestRelay.create();

    private static RelayProcess hung;
    private static NginxProxy nginx;

    @BeforeAll
    static void startAndFreezeOneInstance() throws Exception {
        hung = RelayProcess.start(HEALTHY.databaseUrl(), Files.createTempFile("hung-instance", ".log"), Map.of());
        nginx = NginxProxy.start(List.of(
                HEALTHY.baseUrl().substring("http://".length()), hung.baseUrl().substring("http://".length())));
        hung.freeze();
    }

    @AfterAll
    static void stopBoth() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
        if (hung != null) {
            hung.close();
        }
    }

    @Test
    void everyPlainRequestIsAnsweredByTheOtherInstanceWithinSeconds() throws Exception {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (int i = 0; i < 4; i++) {
            HttpRequest get = HttpRequest.newBuilder(URI.create(nginx.baseUrl() + "/health/live"))
                    .timeout(FAILOVER)
                    .build();
            HttpResponse<String> live = http.send(get, HttpResponse.BodyHandlers.ofString());
            assertThat(live.statusCode()).as(live.body()).isEqualTo(200);

            // An unsigned POST: the healthy instance refuses it with its JSON 401, which proves it answered.
            HttpRequest post = HttpRequest.newBuilder(URI.create(nginx.baseUrl() + "/query"))
                    .timeout(FAILOVER)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("[]"))
                    .build();
            HttpResponse<String> query = http.send(post, HttpResponse.BodyHandlers.ofString());
            assertThat(query.statusCode()).as(query.body()).isBetween(400, 499);
        }
    }
}
