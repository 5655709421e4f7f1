package chat.buzz.relay.query;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.sign;
import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Large POST /query answers are gzipped for a client that asks, and only then. */
@IntegrationTest
class CompressionTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private final NostrKeys owner = NostrKeys.generate();
    private final RelayClient client = RELAY.client();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aLargeAnswerIsGzippedWhenTheClientAsksAndPlainOtherwise() throws Exception {
        UUID channel = newId();
        accepted(client.publish(owner, createChannel(owner, channel, "open")));
        UUID d = newId();
        accepted(client.publish(
                owner,
                sign(
                        owner,
                        45010,
                        List.of(
                                tag(Tags.ARTIFACT_FLAG, "1"),
                                tag(Tags.ARTIFACT_ID, d.toString()),
                                tag(Tags.CHANNEL, channel.toString()),
                                tag(Tags.ARTIFACT_TYPE, "task.v1"),
                                tag(Tags.OPERATION, "create"),
                                tag(Tags.TITLE, "large")),
                        "x".repeat(20_000))));
        String query = "[{\"artifact\":\"current\",\"#h\":[\"" + channel + "\"]}]";

        HttpResponse<byte[]> gzipped = query(query, true);
        assertThat(gzipped.statusCode()).isEqualTo(200);
        assertThat(gzipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).contains(d.toString());
            assertThat(gzipped.body().length).isLessThan(answer.length() / 4);
        }

        HttpResponse<byte[]> plain = query(query, false);
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(new String(plain.body(), StandardCharsets.UTF_8)).contains(d.toString());
    }

    private HttpResponse<byte[]> query(String body, boolean acceptGzip) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String url = client.baseUrl() + "/query";
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .header(
                        "Authorization",
                        Nip98.authorizationHeader(owner, "POST", url, bytes, System.currentTimeMillis() / 1000))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (acceptGzip) {
            request.header("Accept-Encoding", "gzip");
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
