package chat.buzz.relay.sync;

import static chat.buzz.relay.testing.ModelWriter.shortId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.LeakOracle;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.SteadyOperations;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
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
        String fixed = System.getProperty("buzz.steady.sync.seed");
        List<Long> seeds = fixed != null ? List.of(Long.parseLong(fixed)) : List.of(new Random().nextLong(), 13L, 1313L);
        for (long seed : seeds) {
            long started = System.nanoTime();
            new Run(seed).play();
            System.out.printf("steady sync: seed %d took %d ms%n", seed, (System.nanoTime() - started) / 1_000_000);
        }
    }

    private static final class Run {
        private final long seed;
        private final Random random;
        private final Model model = new Model();
        private final ModelWriter writer = new ModelWriter(A.client(), model);
        private final LeakOracle oracle = new LeakOracle(model);
        private final NostrKeys owner = NostrKeys.generate();
        private final List<NostrKeys> readers = List.of(NostrKeys.generate(), NostrKeys.generate(), NostrKeys.generate());
        private final List<SteadyFollower> followers = new ArrayList<>();
        private final List<UUID> channels = new ArrayList<>();
        private UUID markers;
        private int quietPoints;

        Run(long seed) {
            this.seed = seed;
            this.random = new Random(seed);
        }

        void play() {
            writer.name(owner, "owner");
            for (int i = 0; i < readers.size(); i++) {
                writer.name(readers.get(i), "r" + i);
            }
            Set<SteadyOperations.Kind> leftOut = SteadyOperations.randomlyLeftOut(random);
            boolean ttl = random.nextInt(3) > 0;
            SteadyOperations operations = new SteadyOperations(writer, random, owner, readers, leftOut, ttl);
            // Every subscriber, scoped or not, discovers this listed open channel: quiet-point markers go there.
            markers = writer.channel(owner, true, false, false);
            for (int i = 0; i < 2; i++) {
                channels.add(writer.channel(owner, false, false, false));
                channels.add(writer.channel(owner, true, false, false));
                channels.add(writer.channel(owner, true, true, false));
            }
            if (ttl) {
                channels.add(writer.channel(owner, true, false, true));
                channels.add(writer.channel(owner, false, false, true));
            }
            for (NostrKeys reader : readers) {
                for (UUID channel : channels) {
                    if (random.nextInt(3) == 0) {
                        writer.add(owner, channel, reader);
                    }
                }
            }
            for (int i = 0; i < 12; i++) {
                writer.create(owner, channels.get(random.nextInt(channels.size())));
            }
            System.out.printf("steady sync: seed %d, %d operations, leaving out %s%s%n", seed, OPERATIONS, leftOut,
                    ttl ? "" : " and TTL channels");
            try {
                for (int i = 0; i < readers.size(); i++) {
                    followers.add(new SteadyFollower(i % 2 == 0 ? B : A, readers.get(i), Set.of(), "r" + i + " on "
                            + (i % 2 == 0 ? "B" : "A"), model, oracle));
                }
                followers.add(new SteadyFollower(A, owner, Set.of(), "owner on A", model, oracle));
                followers.add(new SteadyFollower(A, readers.get(0), Set.of(markers, channels.get(0), channels.get(2)),
                        "r0 on A scoped to a private and an unlisted channel", model, oracle));
                followers.add(new SteadyFollower(B, readers.get(1), Set.of(markers, channels.get(1), channels.get(3)),
                        "r1 on B scoped to a listed and a private channel", model, oracle));
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
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                        .alias(context() + ": marker " + shortId(marker) + " reaching " + follower.label)
                        .until(() -> follower.holds(marker.toString(), head)
                                || follower.client.closedReason(SteadyFollower.SUBSCRIPTION + "-0").isPresent());
                follower.replay();
                check(follower);
            }
        }

        private void check(SteadyFollower follower) {
            assertThat(follower.leaks).as("%s: what the oracle found in frames to %s%n%s", context(), follower.label,
                    writer.story()).isEmpty();
            assertThat(follower.resets).as("%s: sync_reset closes sent to %s with no policy change%n%s", context(),
                    follower.label, writer.story()).isZero();
            Map<String, String> expected = model.discoverable(follower.view);
            if (follower.store.equals(expected)) {
                return;
            }
            Set<String> missing = new TreeSet<>(expected.keySet());
            missing.removeAll(follower.store.keySet());
            Set<String> extra = new TreeSet<>(follower.store.keySet());
            extra.removeAll(expected.keySet());
            Set<String> stale = new TreeSet<>();
            expected.forEach((d, h) -> {
                if (follower.store.containsKey(d) && !follower.store.get(d).equals(h)) {
                    stale.add(d);
                }
            });
            throw new AssertionError(String.format("%s: at a quiet point %s does not hold exactly D%n  missing %s%n"
                            + "  extra (kept, must be dropped) %s%n  stale head %s%n%s", context(), follower.label,
                    missing.stream().map(ModelWriter::shortId).toList(), extra.stream().map(ModelWriter::shortId).toList(),
                    stale.stream().map(ModelWriter::shortId).toList(), writer.story()));
        }

        private String context() {
            return "seed " + seed + " (replay with -Dbuzz.steady.sync.seed=" + seed + ")";
        }

        private void report(SteadyOperations operations) {
            int resent = followers.stream().mapToInt(f -> f.resent).sum();
            int notHeld = followers.stream().mapToInt(f -> f.removalsOfWhatWasNotHeld).sum();
            System.out.printf("steady sync: seed %d: %d quiet points, 0 sync_reset, %d heads sent again to a subscriber"
                            + " holding them, %d removals of artifacts not held; writes %s%n",
                    seed, quietPoints, resent, notHeld, operations.done());
        }
    }
}
