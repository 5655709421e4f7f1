package chat.buzz.bench;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/** An open channel with a few hundred artifacts, written through the relay's own API. */
record Seed(NostrKeys keys, UUID channel) {

    static Seed create(String baseUrl, int artifacts) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        NostrKeys keys = NostrKeys.generate();
        UUID channel = UUID.randomUUID();
        publish(
                http,
                baseUrl,
                keys,
                keys.sign(
                        Kinds.CREATE_CHANNEL,
                        now(),
                        List.of(
                                List.of(Tags.CHANNEL, channel.toString()),
                                List.of(Tags.CHANNEL_NAME, "benchmark"),
                                List.of(Tags.VISIBILITY, "open")),
                        ""));
        for (int i = 0; i < artifacts; i++) {
            publish(
                    http,
                    baseUrl,
                    keys,
                    keys.sign(
                            Kinds.ARTIFACT_REVISION,
                            now(),
                            List.of(
                                    List.of(Tags.ARTIFACT_FLAG, "1"),
                                    List.of(Tags.ARTIFACT_ID, UUID.randomUUID().toString()),
                                    List.of(Tags.CHANNEL, channel.toString()),
                                    List.of(Tags.ARTIFACT_TYPE, "task.v1"),
                                    List.of(Tags.OPERATION, "create"),
                                    List.of(Tags.TITLE, "seeded task " + i)),
                            "seeded body " + i));
        }
        return new Seed(keys, channel);
    }

    private static void publish(HttpClient http, String baseUrl, NostrKeys keys, Event event) throws Exception {
        byte[] body = event.toJson().getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/events"))
                        .header(
                                "Authorization",
                                Nip98.authorizationHeader(keys, "POST", baseUrl + "/events", body, now()))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("seeding failed: " + response.statusCode() + " " + response.body());
        }
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }
}
