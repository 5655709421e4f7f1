package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.ModelWriter.shortId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.ChannelMetadataProbe;
import chat.buzz.relay.testing.ExactSet;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.LeakOracle;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.PropertySeeds;
import chat.buzz.relay.testing.SteadyOperations;
import chat.buzz.relay.testing.SteadyWorld;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The steady mode for WebSocket sync (issue 13): the same policy-free random writes as the incremental
 * steady test, with live subscribers on two relay instances. At every quiet point (a marker artifact in
 * a channel every subscriber sees has reached each of them, so every earlier change has been handled)
 * each subscriber's set equals D of the model exactly, every frame passed the leak oracle, and no
 * sync_reset was sent. Replay with -Dbuzz.steady.sync.seed=N; -Dbuzz.steady.sync.operations=N sets the length.
 */
@IntegrationTest
class SteadySyncConvergencePropertyTest {
    @RegisterExtension
    static final TestRelay A = TestRelay.create(ConfigOverride.config("gates.sync", "true"));

    @RegisterExtension
    static final TestRelay B = TestRelay.anotherInstance(A, ConfigOverride.config("gates.sync", "true"));

    private static final int OPERATIONS = Integer.getInteger("buzz.steady.sync.operations", 400);

    @Test
    void everyQuietPointFindsEachSubscriberHoldingExactlyTheDiscoverableSet() {
        PropertySeeds.play("steady sync", "buzz.steady.sync.seed", seed -> new Run(seed).play(), 13L, 1313L);
    }

    private static final class Run {
        private final long seed;
        private final Random random;
        private final Model model = new Model();
        private final ModelWriter writer = new ModelWriter(A.client(), model);
        private final LeakOracle oracle = new LeakOracle(model);
        private final List<SteadyFollower> followers = new ArrayList<>();
        private final ChannelMetadataProbe channelMetadata = new ChannelMetadataProbe(model, oracle);
        private final List<NostrKeys> keys = new ArrayList<>();
        private NostrKeys owner;
        private UUID markers;
        private int quietPoints;

        Run(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
        }

        void play() {
            SteadyWorld world = new SteadyWorld(writer, random);
            SteadyOperations operations = world.operations;
            owner = world.owner;
            List<NostrKeys> readers = world.readers;
            List<UUID> channels = world.channels;
            keys.addAll(readers);
            keys.add(owner);
            // Every subscriber, scoped or not, discovers this listed open channel: quiet-point markers go there.
            markers = writer.channel(owner, true, false, false);
            System.out.printf(
                    "steady sync: seed %d, %d operations, leaving out %s%n",
                    seed, OPERATIONS, world.leftOutDescription());
            try {
                for (int i = 0; i < readers.size(); i++) {
                    followers.add(new SteadyFollower(
                            i % 2 == 0 ? B : A,
                            readers.get(i),
                            Set.of(),
                            "r" + i + " on " + (i % 2 == 0 ? "B" : "A"),
                            model,
                            oracle));
                }
                followers.add(new SteadyFollower(A, owner, Set.of(), "owner on A", model, oracle));
                followers.add(new SteadyFollower(
                        A,
                        readers.get(0),
                        Set.of(markers, channels.get(0), channels.get(2)),
                        "r0 on A scoped to a private and an unlisted channel",
                        model,
                        oracle));
                followers.add(new SteadyFollower(
                        B,
                        readers.get(1),
                        Set.of(markers, channels.get(1), channels.get(3)),
                        "r1 on B scoped to a listed and a private channel",
                        model,
                        oracle));
                quietPoint();
                for (int step = 0; step < OPERATIONS; step++) {
                    operations.step();
                    if (random.nextInt(5) == 0) {
                        quietPoint();
                    }
                }
                quietPoint();
                report(operations);
            } finally {
                followers.forEach(SteadyFollower::close);
            }
            writer.deleteAllChannels(owner);
        }

        private void quietPoint() {
            quietPoints++;
            UUID marker = writer.create(owner, markers);
            String head = model.artifacts.get(marker).head;
            for (SteadyFollower follower : followers) {
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(5))
                        .alias(context() + ": marker " + shortId(marker) + " reaching " + follower.label)
                        .until(() -> follower.holds(marker.toString(), head)
                                || follower.client
                                        .closedReason(SteadyFollower.SUBSCRIPTION + "-0")
                                        .isPresent());
                follower.replay();
                check(follower);
            }
            // Every write has been handled by now, so channel metadata is read on both instances in turn.
            for (int i = 0; i < keys.size(); i++) {
                NostrKeys reader = keys.get(i);
                channelMetadata.check(
                        (i + quietPoints) % 2 == 0 ? A.client() : B.client(),
                        reader,
                        writer.name(reader.publicKeyHex()),
                        () -> context() + "\n" + writer.story());
            }
        }

        private void check(SteadyFollower follower) {
            assertThat(follower.leaks)
                    .as("%s: what the oracle found in frames to %s%n%s", context(), follower.label, writer.story())
                    .isEmpty();
            assertThat(follower.resets)
                    .as(
                            "%s: sync_reset closes sent to %s with no policy change%n%s",
                            context(), follower.label, writer.story())
                    .isZero();
            ExactSet.assertHoldsExactly(
                    model.discoverable(follower.view),
                    follower.store,
                    follower.label + " at a quiet point",
                    context(),
                    writer,
                    follower::framesAbout);
        }

        private String context() {
            return "seed " + seed + " (replay with -Dbuzz.steady.sync.seed=" + seed + ")";
        }

        private void report(SteadyOperations operations) {
            int resent = followers.stream().mapToInt(f -> f.resent).sum();
            int notHeld =
                    followers.stream().mapToInt(f -> f.removalsOfWhatWasNotHeld).sum();
            System.out.printf(
                    "steady sync: seed %d: %d quiet points, 0 sync_reset, %d heads sent again to a subscriber"
                            + " holding them, %d removals of artifacts not held, %d channel-metadata reads;"
                            + " writes %s%n",
                    seed, quietPoints, resent, notHeld, channelMetadata.reads(), operations.done());
        }
    }
}
