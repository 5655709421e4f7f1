package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Ping/pong: a connection that answers pings stays; one that stopped reading is closed as idle. */
@IntegrationTest
class IdleConnectionTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("sync.pingIntervalSeconds", "1"),
            ConfigOverride.config("sync.idleTimeoutSeconds", "3"));

    @Test
    void aSilentConnectionIsClosedAndAnAnsweringOneIsNot() {
        try (SyncSocket silent = SyncSocket.connect(RELAY.baseUrl());
                SyncSocket answering = SyncSocket.connect(RELAY.baseUrl())) {
            silent.authenticateOk(NostrKeys.generate());
            answering.authenticateOk(NostrKeys.generate());
            silent.pause();
            await().atMost(Duration.ofSeconds(30)).until(() -> counter("buzz.sync.disconnected-idle") > 0);

            silent.resume();
            assertThat(silent.closedConnection())
                    .succeedsWithin(Duration.ofSeconds(10))
                    .asString()
                    .startsWith("1008");
            List<JsonNode> received = silent.received();
            JsonNode last = received.get(received.size() - 1);
            assertThat(verb(last)).isEqualTo("NOTICE");
            assertThat(last.get(1).asText()).startsWith("idle: ");

            // The answering client has been silent itself for longer than the timeout, but it answered every ping.
            assertThat(answering.closedConnection()).isNotDone();
            answering.subscribe("s", "{\"artifact\":\"sync\"}");
            answering.awaitEose("s");
        }
    }

    private static long counter(String name) {
        return RELAY.counter(name);
    }
}
