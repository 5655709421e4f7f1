package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.scopeFilter;
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
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that sends far more REQs than its subscription limit while reading at full speed keeps its
 * connection: the subscriptions over the limit are refused with CLOSED, the others stream their
 * snapshots, and the refusals never count as a queue the client failed to read.
 */
@IntegrationTest
class ManyRequestsOnOneConnectionTest {
    private static final int REQUESTS = 1_000;
    private static final int SUBSCRIPTION_LIMIT = 10;
    private static final int HEADS = 300;
    private static final int RUNS = 6;

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"),
            // The production limits: the test configuration's are smaller.
            ConfigOverride.config("sync.maxSubscriptionsPerConnection", String.valueOf(SUBSCRIPTION_LIMIT)),
            ConfigOverride.config("sync.queueFrames", "256"),
            ConfigOverride.config("sync.queueBytes", "4194304"),
            ConfigOverride.config("sync.snapshotChunk", "200"),
            ConfigOverride.config("sync.workerThreads", "8"));

    @Test
    void aThousandRequestsFromAClientThatReadsEndInSnapshotsAndRefusalsNeverInAClose() {
        NostrKeys owner = NostrKeys.generate();
        UUID channel = BigSnapshots.openChannel(RELAY, owner);
        for (int i = 0; i < HEADS; i++) {
            BigSnapshots.writeArtifact(RELAY, owner, channel, "y".repeat(2_000));
        }
        String filter = scopeFilter(Set.of(channel));
        for (int run = 0; run < RUNS; run++) {
            try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
                client.authenticateOk(NostrKeys.generate());
                for (int i = 0; i < REQUESTS; i++) {
                    client.subscribe("r" + i, filter);
                }
                await().atMost(Duration.ofSeconds(120))
                        .until(() -> answered(client) == REQUESTS
                                || client.closedConnection().isDone());

                List<JsonNode> received = client.received();
                assertThat(received)
                        .as("run %d: no NOTICE (too slow or otherwise)", run)
                        .noneMatch(m -> verb(m).equals("NOTICE"));
                assertThat(client.closedConnection())
                        .as("run %d: the connection stays open", run)
                        .isNotDone();
                long refused = received.stream()
                        .filter(m -> verb(m).equals("CLOSED")
                                && m.get(2).asText().startsWith("blocked: at most " + SUBSCRIPTION_LIMIT))
                        .count();
                assertThat(refused).as("run %d", run).isEqualTo(REQUESTS - SUBSCRIPTION_LIMIT);
                for (int i = 0; i < SUBSCRIPTION_LIMIT; i++) {
                    assertThat(client.hasEose("r" + i))
                            .as("run %d: r%d streamed its snapshot", run, i)
                            .isTrue();
                    assertThat(client.store("r" + i)).hasSize(HEADS);
                }
            }
        }
    }

    private static long answered(SyncSocket client) {
        return client.received().stream()
                .filter(m -> verb(m).equals("EOSE") || verb(m).equals("CLOSED"))
                .count();
    }
}
