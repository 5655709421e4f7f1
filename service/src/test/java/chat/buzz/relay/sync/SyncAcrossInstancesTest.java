package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.heads;
import static chat.buzz.relay.sync.World.noScope;
import static chat.buzz.relay.sync.World.scopeFilter;
import static chat.buzz.relay.testing.SyncSocket.tag;
import static chat.buzz.relay.testing.SyncSocket.tagNames;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PROTOCOL 5 live updates: writes on relay A reach subscribers on relay B through the shared database. */
@IntegrationTest
class SyncAcrossInstancesTest {
    @RegisterExtension
    static final TestRelay A = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    @RegisterExtension
    static final TestRelay B = TestRelay.anotherInstance(A, ConfigOverride.config("gates.sync", "true"));

    private static final String RELAY_PUBKEY =
            NostrKeys.fromSecretHex("0".repeat(63) + "3").publicKeyHex();

    private final NostrKeys alice = NostrKeys.generate();
    private final NostrKeys bob = NostrKeys.generate();
    // One model per class: every test's channels share the class's database, and open ones are visible to all.
    private static final World world = new World(A::client);

    @Test
    void instancesListenOnDifferentPortsOfOneDatabase() {
        assertThat(A.baseUrl()).isNotEqualTo(B.baseUrl());
        assertThat(A.databaseUrl()).isEqualTo(B.databaseUrl());
    }

    @Test
    void aSubscriberOnBSeesWritesOnAAndARemovalWhenAliceRemovesIt() {
        UUID team = world.channel(alice, false, false, false);
        try (SyncSocket client = SyncSocket.connect(B.baseUrl())) {
            client.authenticateOk(bob);
            client.subscribe("live", scopeFilter(noScope()));
            client.awaitEose("live");
            assertThat(heads(client.store("live"))).isEqualTo(world.discoverable(bob.publicKeyHex(), noScope()));

            world.add(alice, team, bob.publicKeyHex());
            UUID d = world.create(alice, team);
            awaitStore(client, "live", bob, noScope());
            world.update(alice, d);
            awaitStore(client, "live", bob, noScope());
            assertThat(client.store("live").get(d.toString()).get("tags").toString())
                    .contains("edited");

            world.remove(alice, team, bob.publicKeyHex());
            awaitStore(client, "live", bob, noScope());
            assertThat(client.store("live")).doesNotContainKey(d.toString());
            JsonNode removal = lastRemoval(client, d);
            assertRelaySigned(removal);
            assertThat(tag(removal, Tags.REMOVAL_REASON)).isEqualTo("unavailable");
            assertThat(tagNames(removal))
                    .as("bob may no longer know the channel")
                    .containsExactly(Tags.ARTIFACT_FLAG, Tags.ARTIFACT_ID, Tags.REMOVAL_REASON);
        }
    }

    @Test
    void removalsSayMovedOrDeletedOnlyToReadersOfTheChannelTheyLeft() {
        UUID listed = world.channel(alice, true, false, false);
        UUID secret = world.channel(alice, false, false, false);
        UUID toMove = world.create(alice, listed);
        UUID toDelete = world.create(alice, listed);
        try (SyncSocket client = SyncSocket.connect(B.baseUrl())) {
            client.authenticateOk(bob);
            client.subscribe("s", scopeFilter(noScope()));
            client.awaitEose("s");
            assertThat(heads(client.store("s")))
                    .isEqualTo(world.discoverable(bob.publicKeyHex(), noScope()))
                    .containsKeys(toMove.toString(), toDelete.toString());

            world.move(alice, toMove, secret);
            world.delete(alice, toDelete);
            awaitStore(client, "s", bob, noScope());
            assertThat(client.store("s")).doesNotContainKeys(toMove.toString(), toDelete.toString());

            JsonNode moved = lastRemoval(client, toMove);
            assertRelaySigned(moved);
            assertThat(tag(moved, Tags.REMOVAL_REASON)).isEqualTo("moved");
            assertThat(tag(moved, Tags.CHANNEL)).isEqualTo(listed.toString());
            JsonNode deleted = lastRemoval(client, toDelete);
            assertThat(tag(deleted, Tags.REMOVAL_REASON)).isEqualTo("deleted");
            assertThat(tag(deleted, Tags.CHANNEL)).isEqualTo(listed.toString());
        }
    }

    @Test
    void aGrantSendsEveryLiveArtifactOfTheChannelHoweverOld() {
        UUID team = world.channel(alice, false, false, false);
        for (int i = 0; i < 12; i++) {
            world.create(alice, team);
        }
        world.delete(alice, world.create(alice, team));
        try (SyncSocket client = SyncSocket.connect(B.baseUrl())) {
            client.authenticateOk(bob);
            client.subscribe("g", scopeFilter(Set.of(team)));
            client.awaitEose("g");
            assertThat(client.store("g")).isEmpty();
            world.add(alice, team, bob.publicKeyHex());
            awaitStore(client, "g", bob, Set.of(team));
            assertThat(client.store("g")).hasSize(12);
        }
    }

    @Test
    void aPolicyChangeClosesEverySubscriptionOfTheCommunityWithSyncReset() {
        UUID listed = world.channel(alice, true, false, false);
        UUID other = world.channel(alice, true, false, false);
        UUID onlyArtifact = world.create(alice, listed);
        try (SyncSocket onA = SyncSocket.connect(A.baseUrl());
                SyncSocket onB = SyncSocket.connect(B.baseUrl())) {
            onA.authenticateOk(alice);
            onB.authenticateOk(bob);
            onA.subscribe("a", scopeFilter(Set.of(other)));
            onB.subscribe("b", scopeFilter(noScope()));
            onA.awaitEose("a");
            onB.awaitEose("b");
            world.edit(alice, listed, false, null, null);
            assertThat(onA.awaitClosed("a")).isEqualTo("sync_reset: policy changed");
            assertThat(onB.awaitClosed("b")).isEqualTo("sync_reset: policy changed");

            onB.subscribe("b2", scopeFilter(noScope()));
            onB.awaitEose("b2");
            assertThat(heads(onB.store("b2")))
                    .isEqualTo(world.discoverable(bob.publicKeyHex(), noScope()))
                    .doesNotContainKey(onlyArtifact.toString());
        }
    }

    @Test
    void changesCommittedWhileTheSnapshotStreamsArriveAfterEose() {
        UUID listed = world.channel(alice, true, false, false);
        for (int i = 0; i < 40; i++) {
            world.create(alice, listed);
        }
        List<UUID> existing = List.copyOf(world.artifacts.keySet());
        try (SyncSocket client = SyncSocket.connect(B.baseUrl())) {
            client.authenticateOk(bob);
            // The writer works on A while B streams the snapshot in chunks of 7; World is used by it alone until join.
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 15; i++) {
                    world.create(alice, listed);
                    world.update(alice, existing.get(i));
                }
            });
            client.subscribe("race", scopeFilter(Set.of(listed)));
            writer.join();
            client.awaitEose("race");
            awaitStore(client, "race", bob, Set.of(listed));
            assertThat(client.store("race")).hasSize(55);
        }
    }

    @Test
    void aLostChangeFeedResetsSubscribersAndLiveUpdatesResumeAfterReconnecting() {
        UUID listed = world.channel(alice, true, false, false);
        try (SyncSocket client = SyncSocket.connect(B.baseUrl())) {
            client.authenticateOk(bob);
            client.subscribe("before", scopeFilter(Set.of(listed)));
            client.awaitEose("before");
            int killed = A.jdbi()
                    .withHandle(handle ->
                            handle.createQuery("""
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE query LIKE 'LISTEN %' AND datname = current_database()""").mapTo(Integer.class).one());
            assertThat(killed).as("one listener per instance").isEqualTo(2);
            assertThat(client.awaitClosed("before")).startsWith("sync_reset: ");

            // Once the feed is back, the new subscription sees writes again (its snapshot may already hold d).
            client.subscribe("after", scopeFilter(Set.of(listed)));
            client.awaitEose("after");
            UUID d = world.create(alice, listed);
            awaitStore(client, "after", bob, Set.of(listed));
            assertThat(client.store("after")).containsKey(d.toString());
            world.update(alice, d);
            awaitStore(client, "after", bob, Set.of(listed));
        }
    }

    private void awaitStore(SyncSocket client, String subscription, NostrKeys reader, Set<UUID> scope) {
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(heads(client.store(subscription)))
                        .isEqualTo(world.discoverable(reader.publicKeyHex(), scope)));
    }

    private static JsonNode lastRemoval(SyncSocket client, UUID d) {
        JsonNode last = null;
        for (JsonNode message : client.received()) {
            if (verb(message).equals("EVENT")
                    && message.get(2).get("kind").asInt() == Kinds.REMOVAL_MARKER
                    && d.toString().equals(tag(message.get(2), Tags.ARTIFACT_ID))) {
                last = message.get(2);
            }
        }
        assertThat(last).as("a removal for " + d).isNotNull();
        return last;
    }

    private static void assertRelaySigned(JsonNode removal) {
        Event event = Event.fromJson(removal);
        assertThat(event.pubkey()).isEqualTo(RELAY_PUBKEY);
        assertThat(event.hasValidId()).isTrue();
        assertThat(event.hasValidSignature()).isTrue();
        assertThat(event.content()).isEmpty();
        assertThat(tag(removal, Tags.ARTIFACT_FLAG)).isEqualTo("1");
    }
}
