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
 * The steady mode for WebSocket sync: it checks that live subscribers converge without a sync_reset,
 * under the same policy-free random writes as the incremental steady test, with live subscribers on two relay instances. At every quiet point (a marker artifact in
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
        PropertySeeds.play(
                "steady sync",
                "buzz.steady.sync.seed",
                seed -> new Run(A, B, seed, false, "buzz.steady.sync.seed").play(OPERATIONS),
                13L,
                1313L);
    }

    /**
     * One seed's walk over subscribers on instances {@code a} and {@code b}. With {@code policyChanges}
     * the walk also changes channel policy, for relays that deliver those changes as frames (gate
     * scoped_policy on): still no sync_reset, exactly D at every quiet point, and no head sent again to
     * a subscriber holding it.
     */
    static final class Run {
        private final TestRelay a;
        private final TestRelay b;
        private final long seed;
        private final boolean policyChanges;
        private final String replayProperty;
        private final String label;
        private final Random random;
        private final Model model = new Model();
        private final ModelWriter writer;
        private final LeakOracle oracle = new LeakOracle(model);
        private final List<SteadyFollower> followers = new ArrayList<>();
        private final ChannelMetadataProbe channelMetadata = new ChannelMetadataProbe(model, oracle);
        private final List<NostrKeys> keys = new ArrayList<>();
        private NostrKeys owner;
        private UUID markers;
        private int quietPoints;
        private int operationCount;

        Run(TestRelay a, TestRelay b, long seed, boolean policyChanges, String replayProperty) {
            this.a = a;
            this.b = b;
            this.seed = seed;
            this.policyChanges = policyChanges;
            this.replayProperty = replayProperty;
            this.label = policyChanges ? "steady sync with policy changes" : "steady sync";
            this.random = new Random(seed);
            this.writer = new ModelWriter(a.client(), model);
        }

        void play(int operationCount) {
            this.operationCount = operationCount;
            SteadyWorld world = new SteadyWorld(writer, random, policyChanges);
            SteadyOperations operations = world.operations;
            owner = world.owner;
            List<NostrKeys> readers = world.readers;
            List<UUID> channels = world.channels;
            keys.addAll(readers);
            keys.add(owner);
            // Every subscriber, scoped or not, discovers this listed open channel: quiet-point markers go there.
            markers = writer.channel(owner, true, false, false);
            operations.keepPolicy(markers);
            System.out.printf(
                    "%s: seed %d, %d operations, leaving out %s%n",
                    label, seed, operationCount, world.leftOutDescription());
            try {
                for (int i = 0; i < readers.size(); i++) {
                    followers.add(new SteadyFollower(
                            i % 2 == 0 ? b : a,
                            readers.get(i),
                            Set.of(),
                            "r" + i + " on " + (i % 2 == 0 ? "B" : "A"),
                            model,
                            oracle));
                }
                followers.add(new SteadyFollower(a, owner, Set.of(), "owner on A", model, oracle));
                followers.add(new SteadyFollower(
                        a,
                        readers.get(0),
                        Set.of(markers, channels.get(0), channels.get(2)),
                        "r0 on A scoped to a private and an unlisted channel",
                        model,
                        oracle));
                followers.add(new SteadyFollower(
                        b,
                        readers.get(1),
                        Set.of(markers, channels.get(1), channels.get(3)),
                        "r1 on B scoped to a listed and a private channel",
                        model,
                        oracle));
                // A marker written while a snapshot still streams can reach a subscriber through the snapshot,
                // ahead of live frames of writes made before it: the first quiet point waits for every EOSE.
                for (SteadyFollower follower : followers) {
                    await().atMost(Duration.ofSeconds(30))
                            .pollInterval(Duration.ofMillis(5))
                            .alias(context() + ": EOSE reaching " + follower.label)
                            .until(() -> follower.client.liveAtEose(SteadyFollower.SUBSCRIPTION)
                                    || follower.client
                                            .closedReason(SteadyFollower.SUBSCRIPTION + "-0")
                                            .isPresent());
                }
                quietPoint();
                for (int step = 0; step < operationCount; step++) {
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

        /** Where the story and the model's clock stood at the last quiet point. */
        private int lastQuietLine;

        private int lastQuietChange;
        /** Heads sent again although nothing concerning them happened since the last quiet point. */
        private final List<String> resentUnprompted = new ArrayList<>();

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
                int before = follower.resentIds.size();
                follower.replay();
                judgeResent(follower, follower.resentIds.subList(before, follower.resentIds.size()));
                check(follower);
            }
            lastQuietLine = writer.historyLength();
            lastQuietChange = model.changes();
            // Every write has been handled by now, so channel metadata is read on both instances in turn.
            for (int i = 0; i < keys.size(); i++) {
                NostrKeys reader = keys.get(i);
                channelMetadata.check(
                        (i + quietPoints) % 2 == 0 ? a.client() : b.client(),
                        reader,
                        writer.name(reader.publicKeyHex()),
                        () -> context() + "\n" + writer.story());
            }
        }

        /**
         * A head sent again to a subscriber holding it is fine when writes since the last quiet point
         * concerned that artifact (a frame computed after a later write carries the later state, and the
         * later write's frame carries it again); with nothing concerning it (no revision, no policy change
         * of its channel, no membership change of the subscriber there) it is an over-send: PROTOCOL 4.4
         * sends nothing to a reader whose D a policy change did not change.
         */
        private void judgeResent(SteadyFollower follower, List<String> resent) {
            for (String d : resent) {
                UUID id = UUID.fromString(d);
                if (!model.touchedSince(follower.view.reader(), id, lastQuietChange)) {
                    UUID channel = model.artifacts.get(id).channel;
                    resentUnprompted.add(shortId(d) + " in " + shortId(channel) + " to " + follower.label
                            + ", writes since the last quiet point:" + writer.historyFrom(lastQuietLine)
                            + "\n  its history and its channel's:"
                            + writer.historyMentioning(shortId(d), shortId(channel))
                            + "\n  what " + follower.label + " heard of it:" + follower.framesAbout(d));
                }
            }
        }

        private void check(SteadyFollower follower) {
            assertThat(follower.leaks)
                    .as("%s: what the oracle found in frames to %s%n%s", context(), follower.label, writer.story())
                    .isEmpty();
            assertThat(follower.resets)
                    .as(
                            "%s: sync_reset closes sent to %s (%s)%n%s",
                            context(),
                            follower.label,
                            policyChanges ? "policy changes are frames" : "no policy change",
                            writer.story())
                    .isZero();
            if (policyChanges) {
                assertThat(resentUnprompted)
                        .as("%s: heads sent again with nothing concerning them since the last quiet point", context())
                        .isEmpty();
            }
            ExactSet.assertHoldsExactly(
                    model.discoverable(follower.view),
                    follower.store,
                    follower.label + " at a quiet point",
                    context(),
                    writer,
                    follower::framesAbout);
        }

        private String context() {
            return "seed " + seed + " (replay with -D" + replayProperty + "=" + seed + ")";
        }

        private void report(SteadyOperations operations) {
            int resent = followers.stream().mapToInt(f -> f.resent).sum();
            int notHeld =
                    followers.stream().mapToInt(f -> f.removalsOfWhatWasNotHeld).sum();
            System.out.printf(
                    "%s: seed %d: %d operations, %d quiet points, 0 sync_reset, %d heads sent again to a"
                            + " subscriber holding them (%d with nothing concerning them since the last quiet"
                            + " point), %d removals of artifacts not held, %d channel-metadata reads; writes %s%n",
                    label,
                    seed,
                    operationCount,
                    quietPoints,
                    resent,
                    resentUnprompted.size(),
                    notHeld,
                    channelMetadata.reads(),
                    operations.done());
        }
    }
}
