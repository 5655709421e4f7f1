package chat.buzz.relay.client;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.SyncClient;
import chat.buzz.protocol.Hex;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code buzz-sync follow} while the relay it follows really stops and comes back on the same address: the
 * changes made while it was down, written through another instance on the same database, are printed once
 * it has reconnected, and its store ends up equal to what the relay serves.
 */
@IntegrationTest
class FollowAcrossRestartTest {
    /** Both instances serve WebSocket sync, so follow follows live. */
    private static final ConfigOverride[] LIVE = {
        ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.sync", "true")
    };

    @Order(1)
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(LIVE);

    /** Stays up while {@link #RELAY} is down: the writes of the gap go through it. */
    @Order(2)
    @RegisterExtension
    static final TestRelay OTHER = TestRelay.anotherInstance(RELAY, LIVE);

    @TempDir
    Path directory;

    private final Model model = new Model();
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void followReportsTheRestartAndPrintsEveryChangeMadeWhileTheRelayWasDown() throws Exception {
        ModelWriter beforeStop = new ModelWriter(RELAY.client(), model);
        UUID open = beforeStop.channel(owner, true, false, false);
        UUID edited = beforeStop.create(owner, open);
        UUID deleted = beforeStop.create(owner, open);
        UUID untouched = beforeStop.create(owner, open);
        String address = RELAY.baseUrl();
        Path key = Files.writeString(directory.resolve("reader.key"), Hex.encode(reader.secretKey()) + "\n");
        Process follow = CommandLineProcess.start(
                directory, "follow", "--relay", address, "--key", key.toString(), "--store", "follow.db");
        try {
            CommandLineProcess.awaitOutput(follow, directory, "following live over WebSocket sync; Ctrl-C to stop");

            RELAY.stop();
            CommandLineProcess.awaitOutput(follow, directory, "disconnected: ");
            ModelWriter duringGap = new ModelWriter(OTHER.client(), model);
            duringGap.edit(owner, edited);
            UUID created = duringGap.create(owner, open);
            duringGap.delete(owner, deleted);
            assertThat(CommandLineProcess.output(directory))
                    .as("nothing of the gap arrives while the relay is down")
                    .doesNotContain(created.toString());

            RELAY.start();
            assertThat(RELAY.baseUrl()).as("back on the address follow knows").isEqualTo(address);
            CommandLineProcess.awaitOutput(
                    follow, directory, "caught up on 3 changes made meanwhile; following live over WebSocket sync");
            assertThat(CommandLineProcess.output(directory))
                    .contains("reconnected after ")
                    .contains("upsert " + edited + " in " + open + " head " + model.artifacts.get(edited).head)
                    .contains("upsert " + created + " in " + open + " head " + model.artifacts.get(created).head)
                    .contains("remove " + deleted + " (gone while away)")
                    .doesNotContain(untouched.toString());
        } finally {
            follow.destroy();
            assertThat(follow.waitFor(30, TimeUnit.SECONDS))
                    .as("follow stops on SIGTERM")
                    .isTrue();
        }
        // The store as follow left it, against the model's D and the relay's digest (no sync in between).
        try (SyncClient store = ClientHarness.open(
                RELAY.baseUrl(), reader, directory.resolve("follow.db"), List.of(), new ClientHarness.Notes())) {
            ClientHarness.assertStoreIsD(store, model, reader, Set.of());
        }
    }
}
