package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.heads;
import static chat.buzz.relay.sync.World.noScope;
import static chat.buzz.relay.sync.World.scopeFilter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Property: whatever happens, a live subscriber ends up holding exactly D(reader, scope).
 * Seeded random writes on relay A (edits, moves, deletes, restores, redactions, grants, removals,
 * joins and leaves, visibility, unlisted and TTL changes, channel deletion) while subscribers on
 * A and B follow live, resubscribing on sync_reset. Set -Dsync.seed=... to replay a run.
 */
@IntegrationTest
class SyncConvergenceTest {
    @RegisterExtension
    static final TestRelay A = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    @RegisterExtension
    static final TestRelay B = TestRelay.anotherInstance(A, ConfigOverride.config("gates.sync", "true"));

    private static final int MIXED_OPERATIONS = 140;
    /** The last stretch changes no policy, so the final stores are built by live updates, not by resets. */
    private static final int LIVE_ONLY_OPERATIONS = 80;

    private final NostrKeys owner = NostrKeys.generate();
    private final List<NostrKeys> readers = List.of(NostrKeys.generate(), NostrKeys.generate(), NostrKeys.generate());
    private final World world = new World(A::client);

    private record Follower(SyncSocket client, NostrKeys reader, Set<UUID> scope) {}

    @Test
    void everyLiveSubscriberConvergesOnTheDiscoverableSet() {
        long seed = Long.getLong("sync.seed", new Random().nextLong());
        System.out.println("SyncConvergenceTest seed: " + seed + " (replay with -Dsync.seed=" + seed + ")");
        Random random = new Random(seed);

        List<UUID> channels = new ArrayList<>();
        channels.add(world.channel(owner, true, false, false));
        channels.add(world.channel(owner, true, true, false));
        channels.add(world.channel(owner, false, false, false));
        channels.add(world.channel(owner, true, false, false));
        channels.add(world.channel(owner, false, false, false));
        // Scoped subscribers name these two; they never get a TTL, so a scope never has to shrink.
        Set<UUID> scope = new LinkedHashSet<>(channels.subList(1, 3));
        for (int i = 0; i < 12; i++) {
            world.create(owner, channels.get(random.nextInt(channels.size())));
        }

        List<Follower> followers = new ArrayList<>();
        try {
            for (NostrKeys reader : allReaders()) {
                followers.add(follow(B, reader, noScope()));
                followers.add(follow(A, reader, scope));
            }
            for (int i = 0; i < MIXED_OPERATIONS; i++) {
                step(random, channels, scope, true);
            }
            for (int i = 0; i < LIVE_ONLY_OPERATIONS; i++) {
                step(random, channels, scope, false);
            }
            for (Follower follower : followers) {
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                    assertThat(follower.client().liveAtEose("f")).isTrue();
                    assertThat(heads(follower.client().liveStore("f")))
                            .as(
                                    "seed %d, reader %s, scope %s",
                                    seed, follower.reader().publicKeyHex(), follower.scope())
                            .isEqualTo(world.discoverable(follower.reader().publicKeyHex(), follower.scope()));
                });
            }
            int resets = followers.stream()
                    .mapToInt(f -> f.client().resubscriptions())
                    .sum();
            System.out.println("SyncConvergenceTest: " + followers.size() + " subscribers converged; " + resets
                    + " resubscriptions after sync_reset");
        } finally {
            followers.forEach(f -> f.client().close());
        }
    }

    private List<NostrKeys> allReaders() {
        List<NostrKeys> all = new ArrayList<>(readers);
        all.add(owner);
        return all;
    }

    private static Follower follow(TestRelay relay, NostrKeys reader, Set<UUID> scope) {
        SyncSocket client = SyncSocket.connect(relay.baseUrl());
        client.authenticateOk(reader);
        client.subscribeLive("f", scopeFilter(scope));
        return new Follower(client, reader, scope);
    }

    private void step(Random random, List<UUID> channels, Set<UUID> scope, boolean policyChanges) {
        List<UUID> live =
                channels.stream().filter(c -> !world.channels.get(c).deleted).toList();
        UUID channel = live.get(random.nextInt(live.size()));
        Model.Channel facts = world.channels.get(channel);
        NostrKeys reader = readers.get(random.nextInt(readers.size()));
        String pubkey = reader.publicKeyHex();
        int roll = policyChanges ? random.nextInt(100) : random.nextInt(62);
        if (roll < 14) {
            world.create(owner, channel);
        } else if (roll < 44) {
            artifactStep(random, live);
        } else if (roll < 54) {
            if (facts.members.contains(pubkey)) {
                world.remove(owner, channel, pubkey);
            } else {
                world.add(owner, channel, pubkey);
            }
        } else if (roll < 62) {
            if (facts.members.contains(pubkey)) {
                world.leave(reader, channel);
            } else if (facts.open) {
                world.join(reader, channel);
            }
        } else if (roll < 70) {
            world.edit(owner, channel, !facts.open, null, null);
        } else if (roll < 77) {
            if (facts.open) {
                world.edit(owner, channel, null, !facts.unlisted, null);
            }
        } else if (roll < 83) {
            if (!scope.contains(channel)) {
                world.edit(owner, channel, null, null, !facts.ttl);
            }
        } else if (roll < 86) {
            if (live.size() > 3 && !scope.contains(channel)) {
                world.deleteChannel(owner, channel);
                channels.add(world.channel(owner, random.nextBoolean(), false, false));
            }
        } else {
            artifactStep(random, live);
        }
    }

    private void artifactStep(Random random, List<UUID> liveChannels) {
        Predicate<Model.Artifact> writable = a -> liveChannels.contains(a.channel);
        List<Model.Artifact> candidates =
                world.artifacts.values().stream().filter(writable).toList();
        if (candidates.isEmpty()) {
            return;
        }
        Model.Artifact artifact = candidates.get(random.nextInt(candidates.size()));
        if (artifact.deleted) {
            world.restore(owner, artifact.d);
            return;
        }
        int roll = random.nextInt(10);
        if (roll < 4) {
            world.update(owner, artifact.d);
        } else if (roll < 6 && liveChannels.size() > 1) {
            UUID to = liveChannels.get(random.nextInt(liveChannels.size()));
            if (!to.equals(artifact.channel)) {
                world.move(owner, artifact.d, to);
            }
        } else if (roll < 8) {
            world.delete(owner, artifact.d);
        } else if (!artifact.redacted) {
            world.redactHead(owner, artifact.d);
        } else {
            world.update(owner, artifact.d);
        }
    }
}
