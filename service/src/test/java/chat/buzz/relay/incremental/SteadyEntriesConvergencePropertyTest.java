package chat.buzz.relay.incremental;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.PropertySeeds;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The steady walk of {@link SteadyConvergencePropertyTest} with channel policy changes among its writes
 * (made private or open, unlisted flag and TTL set and cleared, channels deleted), on a relay that
 * delivers them as entries (gate scoped_policy on, PROTOCOL 4.4). Nothing may reset a client here either:
 * zero resets, every session that ran without writes in between ends with exactly D of the model, no page
 * names an artifact twice, every answer and every sealed cursor passes the leak oracle, and no later
 * session sends again a head an earlier one delivered unless it left the reader's D in between.
 * Replay with -Dbuzz.steady.entries.seed=N; -Dbuzz.steady.entries.operations=N sets the length.
 */
@IntegrationTest
class SteadyEntriesConvergencePropertyTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    private static final int OPERATIONS = Integer.getInteger("buzz.steady.entries.operations", 500);

    @Test
    void policyChangesAsEntriesLeaveEverySessionWithExactlyTheDiscoverableSet() {
        PropertySeeds.play(
                "steady incremental with policy changes",
                "buzz.steady.entries.seed",
                seed -> new SteadyConvergencePropertyTest.Run(RELAY, seed, true, "buzz.steady.entries.seed")
                        .play(OPERATIONS),
                13L,
                1313L);
    }
}
