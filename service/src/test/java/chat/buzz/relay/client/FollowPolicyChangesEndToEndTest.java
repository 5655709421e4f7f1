package chat.buzz.relay.client;

import static chat.buzz.relay.client.ClientHarness.discoverableHeads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.client.Follower;
import chat.buzz.client.SyncClient;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.PolicyChangeKinds;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Follower} live over WebSocket sync through every kind of channel policy change of
 * {@link PolicyChangeKinds}, once on a relay that delivers them as resets (sync_reset, resubscription)
 * and once on one that delivers them as entries (frames, PROTOCOL 4.4 and 5): both keep the store equal
 * to D, and as entries the follower never resubscribes nor notes a policy reset.
 */
@IntegrationTest
class FollowPolicyChangesEndToEndTest {
    // Overrides are system properties until the class ends: each relay states every gate it needs.
    @Order(1)
    @RegisterExtension
    static final TestRelay RESETS = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("gates.scopedPolicy", "false"));

    @Order(2)
    @RegisterExtension
    static final TestRelay ENTRIES = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("gates.sync", "true"),
            ConfigOverride.config("gates.scopedPolicy", "true"));

    @TempDir
    Path directory;

    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();
    private final ClientHarness.Notes notes = new ClientHarness.Notes();
    private final ExecutorService background = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopFollowing() throws InterruptedException {
        background.shutdownNow();
        assertThat(background.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    @ParameterizedTest(name = "policy changes as entries: {0}")
    @ValueSource(booleans = {false, true})
    void aFollowerStaysEqualToDThroughEveryKindOfPolicyChange(boolean entries) throws Exception {
        TestRelay relay = entries ? ENTRIES : RESETS;
        Model model = new Model();
        ModelWriter writer = new ModelWriter(relay.client(), model);
        NostrKeys member = NostrKeys.generate();
        try (SyncClient client =
                        ClientHarness.open(relay.baseUrl(), reader, directory.resolve("follow.db"), List.of(), notes);
                Follower follower = new Follower(client, Duration.ofSeconds(1), Duration.ofMinutes(30))) {
            Future<?> running = background.submit(() -> {
                follower.run();
                return null;
            });
            await().atMost(Duration.ofSeconds(30)).until(follower::live);
            for (PolicyChangeKinds.Change change : PolicyChangeKinds.all()) {
                UUID channel = Nostr.newId();
                Replies.accepted(relay.client().publish(owner, change.create(owner, channel)));
                model.addChannel(channel, owner.publicKeyHex(), change.open(), change.unlisted(), change.ttl());
                writer.add(owner, channel, member);
                writer.create(owner, channel);
                writer.create(owner, channel);
                awaitStoreIsD(client, model, change + ", before");

                Replies.accepted(relay.client().publish(owner, change.change(owner, channel)));
                change.applyTo(model, channel);
                awaitStoreIsD(client, model, change + ", after");
            }
            if (entries) {
                assertThat(follower.resubscriptions()).isZero();
                assertThat(notes.lines).noneMatch(line -> line.startsWith("policy reset"));
            } else {
                assertThat(follower.resubscriptions()).isPositive();
            }
            assertThat(running).isNotDone();
            follower.close();
            running.get(30, TimeUnit.SECONDS);
        }
    }

    private void awaitStoreIsD(SyncClient client, Model model, String as) {
        await().alias(as)
                .atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(discoverableHeads(client))
                        .as(as)
                        .isEqualTo(model.discoverable(new Model.View(reader.publicKeyHex(), Set.of()))));
    }
}
