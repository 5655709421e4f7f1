package chat.buzz.relay.sync;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.PropertySeeds;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The steady WebSocket walk of {@link SteadySyncConvergencePropertyTest} with channel policy changes
 * among its writes (made private or open, unlisted flag and TTL set and cleared, channels deleted), on
 * two instances that deliver them as live frames (gate scoped_policy on, PROTOCOL 4.4 and 5): zero
 * sync_reset, exactly D of the model for every subscriber at every quiet point, every frame through the
 * leak oracle, and no head sent again to a subscriber that holds it.
 * Replay with -Dbuzz.steady.sync.entries.seed=N; -Dbuzz.steady.sync.entries.operations=N sets the length.
 */
@IntegrationTest
class SteadySyncEntriesConvergencePropertyTest {
    @RegisterExtension
    static final TestRelay A = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    @RegisterExtension
    static final TestRelay B = TestRelay.anotherInstance(
            A, ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    private static final int OPERATIONS = Integer.getInteger("buzz.steady.sync.entries.operations", 400);

    @Test
    void policyChangesAsFramesLeaveEveryQuietPointWithExactlyTheDiscoverableSet() {
        PropertySeeds.play(
                "steady sync with policy changes",
                "buzz.steady.sync.entries.seed",
                seed -> new SteadySyncConvergencePropertyTest.Run(A, B, seed, true, "buzz.steady.sync.entries.seed")
                        .play(OPERATIONS),
                13L,
                1313L);
    }
}
