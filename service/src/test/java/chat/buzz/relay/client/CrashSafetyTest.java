package chat.buzz.relay.client;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.client.SqliteStore;
import chat.buzz.client.Store;
import chat.buzz.client.StoredArtifact;
import chat.buzz.protocol.Hex;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * buzz-sync killed with SIGKILL at random points of long syncs (bootstraps, deltas, policy resets and
 * their revalidation), restarted each time. Self-checks are off throughout, so no repair can hide a
 * lost page: at the end the store must match the relay's digest as it stands.
 */
@IntegrationTest
class CrashSafetyTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private static final int ARTIFACTS = 2000;
    private static final int KILLS = 20;
    private static final long SEED = Long.getLong("buzz.crash.seed", System.nanoTime());

    @TempDir
    Path directory;

    private final Model model = new Model();
    private final ModelWriter writer = new ModelWriter(RELAY.client(), model);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void killedAtRandomItResumesConvergesAndNeverSavesACursorWithoutItsData() throws Exception {
        Random random = new Random(SEED);
        UUID channel = writer.channel(owner, false, false, false);
        UUID toggled = writer.channel(owner, true, false, false);
        writer.add(owner, channel, reader);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < ARTIFACTS; i++) {
            ids.add(writer.create(owner, channel));
        }
        Files.writeString(directory.resolve("reader.key"), Hex.encode(reader.secretKey()));
        String[] sync = {
            "sync",
            "--relay",
            RELAY.baseUrl(),
            "--key",
            "reader.key",
            "--store",
            "store.db",
            "--no-progress",
            "--no-check"
        };

        int kills = 0;
        int finished = 0;
        for (int round = 0; kills < KILLS && round < 10 * KILLS; round++) {
            Process process = CommandLineProcess.start(directory, sync);
            // Past the JVM's start most of the time, so the kill lands among pages, commits and known-ID reads.
            long delay = 300 + random.nextInt(2500);
            if (process.waitFor(delay, TimeUnit.MILLISECONDS)) {
                assertThat(process.exitValue())
                        .as("seed %d; %s", SEED, CommandLineProcess.errors(directory))
                        .isZero();
                finished++;
            } else {
                process.destroyForcibly();
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
                kills++;
            }
            assertEveryStoredHeadWasWritten();
            if (round % 3 == 2) {
                for (int i = 0; i < 10; i++) {
                    writer.edit(owner, ids.get(random.nextInt(ids.size())));
                }
                writer.create(owner, channel);
            }
            if (round % 5 == 4) {
                // Any change of a channel's listing advances the policy stamp: the next sync is a reset bootstrap.
                boolean unlisted = !model.channels.get(toggled).unlisted;
                Replies.accepted(RELAY.client()
                        .publish(
                                owner,
                                Nostr.editChannel(owner, toggled, tag(Tags.UNLISTED, Boolean.toString(unlisted)))));
                model.channels.get(toggled).unlisted = unlisted;
            }
        }
        assertThat(kills)
                .as("seed %d: rounds that were killed (%d finished first)", SEED, finished)
                .isGreaterThanOrEqualTo(KILLS);

        assertThat(CommandLineProcess.run(directory, sync))
                .as(CommandLineProcess.errors(directory))
                .isZero();
        int verified = CommandLineProcess.run(
                directory,
                "verify",
                "--no-repair",
                "--relay",
                RELAY.baseUrl(),
                "--key",
                "reader.key",
                "--store",
                "store.db");
        assertThat(verified)
                .as(
                        "seed %d: the store matches the relay without repair: %s %s",
                        SEED, CommandLineProcess.output(directory), CommandLineProcess.errors(directory))
                .isZero();
        Map<String, String> expected = model.discoverable(new Model.View(reader.publicKeyHex(), Set.of()));
        assertThat(CommandLineProcess.output(directory))
                .containsPattern("(?m)^store matches the relay: " + expected.size() + " artifacts");
        try (SqliteStore store = SqliteStore.open(directory.resolve("store.db"))) {
            Map<String, String> held = new java.util.HashMap<>();
            store.list(Optional.empty()).forEach(a -> held.put(a.d(), a.headId()));
            assertThat(held).isEqualTo(expected);
        }
    }

    /** Whatever a kill left: a readable store whose every entry is a revision that was really written. */
    private void assertEveryStoredHeadWasWritten() {
        Path file = directory.resolve("store.db");
        if (!Files.exists(file)) {
            return;
        }
        try (Store store = SqliteStore.open(file)) {
            for (StoredArtifact artifact : store.list(Optional.empty())) {
                Model.Artifact written = model.artifacts.get(UUID.fromString(artifact.d()));
                assertThat(written)
                        .as("seed %d: stored %s was never written", SEED, artifact.d())
                        .isNotNull();
                assertThat(written.revisions).as("seed %d", SEED).contains(artifact.headId());
            }
        }
    }
}
