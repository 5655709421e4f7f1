package chat.buzz.relay.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayProcess;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM drains before it stops (docs/deployment.md, "Rolling restart"): readiness answers 503 at once
 * while requests are still served for the drain period, then each WebSocket client is told to connect
 * again (a "restarting:" NOTICE, close 1001) and the process exits cleanly.
 */
@IntegrationTest
class DrainOnStopTest {

    @Test
    void aStoppingInstanceIsNotReadyServesOnThenSendsItsSubscribersAway() throws Exception {
        String databaseUrl = TestDatabases.fresh();
        Path log = Files.createTempDirectory("drain").resolve("relay.log");
        RelayProcess relay = RelayProcess.start(
                databaseUrl, log, Map.of("BUZZ_DRAIN_PERIOD", "4s", "BUZZ_ARTIFACT_SYNC_ENABLED", "true"));
        try (SyncSocket subscriber = SyncSocket.connect(relay.baseUrl())) {
            subscriber.authenticateOk(NostrKeys.generate());
            subscriber.subscribe("s", "{\"artifact\":\"sync\"}");
            subscriber.awaitEose("s");
            assertThat(relay.status("/health/ready")).isEqualTo(200);

            relay.terminate();
            await().atMost(Duration.ofSeconds(3))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> relay.status("/health/ready") == 503);
            RelayClient client = new RelayClient(relay.baseUrl());
            NostrKeys writer = NostrKeys.generate();
            assertThat(client.publish(writer, Nostr.createChannel(writer, Nostr.newId(), "open"))
                            .status())
                    .as("a write while draining is still served")
                    .isEqualTo(200);
            assertThat(subscriber.closedConnection().isDone())
                    .as("subscribers stay connected while the proxy moves traffic away")
                    .isFalse();

            String close = subscriber.closedConnection().get(30, TimeUnit.SECONDS);
            assertThat(close).startsWith("1001");
            assertThat(subscriber.receivedTexts())
                    .anyMatch(text -> text.startsWith("[\"NOTICE\",\"" + ErrorCodes.RESTARTING_PREFIX));
            assertThat(relay.awaitExit()).as("exit code after SIGTERM").isIn(0, 143);
            assertThat(Files.readString(log)).contains("Stopping: not ready from now on", "Drained:");
        } finally {
            relay.close();
            TestDatabases.drop(databaseUrl);
        }
    }
}
