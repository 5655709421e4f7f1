package chat.buzz.relay.client;

import static chat.buzz.relay.client.ClientHarness.discoverableHeads;
import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.client.Follower;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.SyncClient;
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
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@link Follower} against the real relay: live over WebSocket sync (PROTOCOL 5), or by polling without it. */
@IntegrationTest
class FollowEndToEndTest {
    @Order(1)
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.sync", "true"));

    @Order(2)
    @RegisterExtension
    static final TestRelay POLLED = TestRelay.anotherInstance(
            RELAY, ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.sync", "false"));

    /**
     * A community of its own: the other tests' policy changes would reach a live subscription here as
     * sync_reset, and the resubscription would repair the damage before the self-check could.
     */
    @Order(3)
    @RegisterExtension
    static final TestRelay ISOLATED = TestRelay.anotherInstance(
            RELAY,
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("communities[0].name", "self-check"));

    @TempDir
    Path directory;

    private final Model model = new Model();
    private ModelWriter writer = new ModelWriter(RELAY.client(), model);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();
    private final ClientHarness.Notes notes = new ClientHarness.Notes();
    private final ExecutorService background = Executors.newSingleThreadExecutor();

    @AfterEach
    void cleanUp() throws InterruptedException {
        background.shutdownNow();
        assertThat(background.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        writer.deleteAllChannels(owner);
    }

    private void awaitStoreIsD(SyncClient client) {
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(discoverableHeads(client))
                        .isEqualTo(model.discoverable(new Model.View(reader.publicKeyHex(), Set.of()))));
    }

    @Test
    void liveChangesArriveOverWebSocketAndAResetResubscribes() throws Exception {
        UUID open = writer.channel(owner, true, false, false);
        UUID secret = writer.channel(owner, false, false, false);
        UUID d = writer.create(owner, open);
        UUID moving = writer.create(owner, open);
        UUID inSecret = writer.create(owner, secret);
        try (SyncClient client =
                        ClientHarness.open(RELAY.baseUrl(), reader, directory.resolve("live.db"), List.of(), notes);
                Follower follower = new Follower(client, Duration.ofSeconds(1), Duration.ofMinutes(30))) {
            Future<?> running = background.submit(() -> {
                follower.run();
                return null;
            });
            awaitStoreIsD(client);
            assertThat(client.capabilities().sync()).isTrue();

            writer.edit(owner, d);
            writer.move(owner, moving, secret);
            writer.create(owner, open);
            awaitStoreIsD(client);

            writer.add(owner, secret, reader);
            awaitStoreIsD(client);
            assertThat(client.store().get(inSecret.toString())).isPresent();
            writer.delete(owner, d);
            writer.remove(owner, secret, reader);
            awaitStoreIsD(client);

            Replies.accepted(RELAY.client()
                    .publish(owner, Nostr.editChannel(owner, open, tag(Tags.VISIBILITY, "private"))));
            model.channels.get(open).open = false;
            awaitStoreIsD(client);
            await().atMost(Duration.ofSeconds(30)).until(() -> follower.resubscriptions() >= 1);
            assertThat(notes.lines).anyMatch(line -> line.startsWith("policy reset (sync_reset"));

            writer.add(owner, open, reader);
            writer.create(owner, open);
            awaitStoreIsD(client);
            assertThat(running).isNotDone();
            follower.close();
            running.get(30, TimeUnit.SECONDS);
        }
    }

    /** {@code buzz-sync follow} as a person runs it: a separate process, its printed lines, its store file. */
    @Test
    void theFollowCommandPrintsEachChangeAsItArrivesAndKeepsItsStoreEqualToD() throws Exception {
        UUID open = writer.channel(owner, true, false, false);
        UUID edited = writer.create(owner, open);
        UUID deleted = writer.create(owner, open);
        Path key = Files.writeString(directory.resolve("reader.key"), Hex.encode(reader.secretKey()) + "\n");
        Process follow = CommandLineProcess.start(
                directory, "follow", "--relay", RELAY.baseUrl(), "--key", key.toString(), "--store", "follow.db");
        try {
            awaitOutput(follow, "following live over WebSocket sync; Ctrl-C to stop");
            writer.edit(owner, edited);
            UUID created = writer.create(owner, open);
            writer.delete(owner, deleted);
            awaitOutput(follow, "upsert " + edited + " in " + open + " head ");
            awaitOutput(follow, "upsert " + created + " in " + open + " head ");
            awaitOutput(follow, "remove " + deleted + " (deleted)");
            try (SyncClient store =
                    ClientHarness.open(RELAY.baseUrl(), reader, directory.resolve("follow.db"), List.of(), notes)) {
                awaitStoreIsD(store);
            }
        } finally {
            follow.destroy();
            assertThat(follow.waitFor(30, TimeUnit.SECONDS))
                    .as("follow stops on SIGTERM")
                    .isTrue();
        }
        assertThat(CommandLineProcess.errors(directory)).doesNotContain("buzz-sync: relay answered");
    }

    /** Channel metadata rides the same connection (PROTOCOL 4.6): names of channels made meanwhile show. */
    @Test
    void theFollowCommandShowsAChannelCreatedOrRenamedWhileItRunsWithItsName() throws Exception {
        Path key = Files.writeString(directory.resolve("reader.key"), Hex.encode(reader.secretKey()) + "\n");
        Process follow = CommandLineProcess.start(
                directory, "follow", "--relay", RELAY.baseUrl(), "--key", key.toString(), "--store", "follow.db");
        try {
            awaitOutput(follow, "following live over WebSocket sync; Ctrl-C to stop");
            UUID channel = writer.channel(owner, true, false, false);
            awaitOutput(follow, "channel " + channel + "  #channel " + channel + " (open, 1 member)");
            UUID d = writer.create(owner, channel);
            awaitOutput(
                    follow,
                    "upsert " + d + " in " + channel + " head " + model.artifacts.get(d).head + "  #channel "
                            + channel);

            Replies.accepted(RELAY.client()
                    .publish(owner, Nostr.editChannel(owner, channel, tag(Tags.CHANNEL_NAME, "renamed"))));
            awaitOutput(follow, "channel " + channel + "  #renamed (open, 1 member)");
            writer.edit(owner, d);
            awaitOutput(
                    follow, "upsert " + d + " in " + channel + " head " + model.artifacts.get(d).head + "  #renamed");

            writer.deleteChannel(owner, channel);
            awaitOutput(follow, "channel " + channel + " is no longer visible to this key");
        } finally {
            follow.destroy();
            assertThat(follow.waitFor(30, TimeUnit.SECONDS))
                    .as("follow stops on SIGTERM")
                    .isTrue();
        }
    }

    private void awaitOutput(Process follow, String line) {
        CommandLineProcess.awaitOutput(follow, directory, line);
    }

    @Test
    void thePeriodicSelfCheckRepairsAStoreDamagedWhileFollowing() throws Exception {
        writer = new ModelWriter(ISOLATED.client(), model);
        UUID open = writer.channel(owner, true, false, false);
        List<UUID> ids = List.of(writer.create(owner, open), writer.create(owner, open), writer.create(owner, open));
        Path file = directory.resolve("damaged.db");
        try (SyncClient client = ClientHarness.open(ISOLATED.baseUrl(), reader, file, List.of(), notes);
                Follower follower = new Follower(client, Duration.ofSeconds(1), Duration.ofSeconds(1))) {
            Future<?> running = background.submit(() -> {
                follower.run();
                return null;
            });
            awaitStoreIsD(client);
            // Damage made before the subscription's initial heads would be repaired by them, not by the check.
            await().atMost(Duration.ofSeconds(30)).until(follower::live);
            try (SqliteStore other = SqliteStore.open(file)) {
                other.forget(List.of(ids.get(1).toString()));
            }
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                if (running.isDone()) {
                    running.get();
                }
                assertThat(notes.lines)
                        .anyMatch(line -> line.startsWith("self-check: store had drifted; repaired: 1 restored"));
            });
            awaitStoreIsD(client);
            assertThat(follower.resubscriptions())
                    .as("repaired by the check, not by a resubscription")
                    .isZero();
        }
    }

    @Test
    void withoutWebSocketSyncItPolls() throws Exception {
        UUID open = writer.channel(owner, true, false, false);
        UUID d = writer.create(owner, open);
        try (SyncClient client =
                        ClientHarness.open(POLLED.baseUrl(), reader, directory.resolve("polled.db"), List.of(), notes);
                Follower follower = new Follower(client, Duration.ofSeconds(1), Duration.ofMinutes(30))) {
            background.submit(() -> {
                follower.run();
                return null;
            });
            awaitStoreIsD(client);
            assertThat(client.capabilities().sync()).isFalse();
            // Changes made before polling starts land in the first sync's self-check, which reports nothing.
            await().atMost(Duration.ofSeconds(30)).until(() -> !notes.following.isEmpty());
            assertThat(notes.following.get(0)).startsWith("by polling every 1 s");
            assertThat(notes.changes)
                    .as("the bootstrap is not reported as changes")
                    .isEmpty();
            writer.edit(owner, d);
            UUID created = writer.create(owner, open);
            awaitStoreIsD(client);
            writer.delete(owner, created);
            awaitStoreIsD(client);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> assertThat(notes.changes)
                            .extracting(change -> (change.upsert() ? "upsert " : "remove ") + change.d())
                            .contains("upsert " + d, "upsert " + created, "remove " + created));
        }
    }
}
