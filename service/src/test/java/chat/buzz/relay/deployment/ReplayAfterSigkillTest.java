package chat.buzz.relay.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.RelayProcess;
import chat.buzz.relay.testing.TestDatabases;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PROTOCOL 2.1 step 6 survives the crash of an instance: the replay guard's row is committed before the
 * answer leaves, so a header one relay process served, SIGKILLed right after, is refused by another
 * process on the same database.
 */
@IntegrationTest
class ReplayAfterSigkillTest {
    private static final String QUERY = "[{\"artifact\":\"current\"}]";

    @Test
    void aHeaderServedByAnInstanceKilledRightAfterIsRefusedByAnother() throws Exception {
        String databaseUrl = TestDatabases.fresh();
        Path logs = Files.createTempDirectory("replay-after-sigkill");
        RelayProcess answered = null;
        RelayProcess survivor = null;
        try {
            answered = RelayProcess.start(databaseUrl, logs.resolve("answered.log"), Map.of());
            survivor = RelayProcess.start(databaseUrl, logs.resolve("survivor.log"), Map.of());
            String host = answered.baseUrl().substring("http://".length());
            String header = Nip98.authorizationHeader(
                    NostrKeys.generate(),
                    "POST",
                    answered.baseUrl() + "/query",
                    QUERY.getBytes(StandardCharsets.UTF_8),
                    System.currentTimeMillis() / 1000);

            assertThat(send(answered, host, header)).startsWith("HTTP/1.1 200");
            answered.kill();

            assertThat(send(survivor, host, header)).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
        } finally {
            if (answered != null) {
                answered.close();
            }
            if (survivor != null) {
                survivor.close();
            }
            TestDatabases.drop(databaseUrl);
        }
    }

    /** The header names the killed instance's URL, so it is sent to either with that Host. */
    private static String send(RelayProcess relay, String host, String header) throws Exception {
        return RawHttp.exchange(
                relay.baseUrl(),
                "POST /query HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + header + "\r\nContent-Length: "
                        + QUERY.length() + "\r\nConnection: close\r\n\r\n" + QUERY);
    }
}
