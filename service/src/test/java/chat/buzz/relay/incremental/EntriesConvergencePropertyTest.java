package chat.buzz.relay.incremental;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.PropertySeeds;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reset-heavy convergence walk of {@link ConvergencePropertyTest} (visibility, unlisted, TTL and
 * deletion changes among writes and membership changes) with policy changes delivered as entries (gate
 * SCOPED_POLICY on, PROTOCOL 4.4): zero resets, every completed session ends with exactly D, no page
 * names an artifact twice, and no cursor names an artifact the reader was never given (seeds 4242,
 * -2392584303722642393 and 1 once found a page whose whole window, at one moment, yielded no entry
 * ending on such a cursor; seed 521562673238031578 once lost two artifacts of a channel a reader was
 * added to, that was made open and the reader removed from, on a session's later pages). Replay with -Dbuzz.entries.seed=N; -Dbuzz.entries.operations=N sets the length.
 */
@IntegrationTest
class EntriesConvergencePropertyTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    private static final int OPERATIONS = Integer.getInteger("buzz.entries.operations", 1000);

    @Test
    void policyChangesAsEntriesConvergeWithoutAReset() {
        PropertySeeds.play(
                "convergence with policy changes as entries",
                "buzz.entries.seed",
                seed -> new ConvergencePropertyTest.Run(RELAY, seed, true).play(OPERATIONS),
                11L,
                4242L,
                -2392584303722642393L,
                1L,
                521562673238031578L);
    }
}
