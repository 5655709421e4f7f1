package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What a relay under test says of its standby on its admin API ({@code GET /api/standbys}). */
final class RelayStandbys {
    /** Where a relay's reads ran so far ({@code reads} of {@code GET /api/standbys}). */
    record Placed(long standby, long primary, long primaryAfterStandby) {
        Placed minus(Placed earlier) {
            return new Placed(
                    standby - earlier.standby,
                    primary - earlier.primary,
                    primaryAfterStandby - earlier.primaryAfterStandby);
        }

        Placed plus(Placed other) {
            return new Placed(
                    standby + other.standby, primary + other.primary, primaryAfterStandby + other.primaryAfterStandby);
        }
    }

    private final HttpClient admin =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String adminToken;

    RelayStandbys(String adminToken) {
        this.adminToken = adminToken;
    }

    /** Waits, at most {@code limitSeconds}, until the relay routes reads to its standby. */
    void awaitServing(String adminUrl, int limitSeconds) throws IOException, InterruptedException {
        String state = "";
        for (int i = 0; i < limitSeconds * 4; i++) {
            state = standbys(adminUrl).path("standbys").path(0).path("state").asText();
            if (state.equals("HEALTHY")) {
                return;
            }
            Thread.sleep(250); // the relay samples once a second; bounded by limitSeconds
        }
        throw new IllegalStateException(
                "the relay's standby is " + state + ", not HEALTHY, after " + limitSeconds + " s");
    }

    Placed placed(String adminUrl) throws IOException, InterruptedException {
        JsonNode reads = standbys(adminUrl).path("reads");
        return new Placed(
                reads.path("standby").asLong(),
                reads.path("primary").asLong(),
                reads.path("primaryAfterStandby").asLong());
    }

    JsonNode standbys(String adminUrl) throws IOException, InterruptedException {
        HttpResponse<String> response = admin.send(
                HttpRequest.newBuilder(URI.create(adminUrl + "/api/standbys"))
                        .header("Authorization", "Bearer " + adminToken)
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("admin /api/standbys answered " + response.statusCode() + ": " + response.body());
        }
        return SignedCalls.JSON.readTree(response.body());
    }
}
