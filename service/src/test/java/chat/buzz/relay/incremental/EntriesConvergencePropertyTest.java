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
 * names an artifact twice. Replay with -Dbuzz.entries.seed=N; -Dbuzz.entries.operations=N sets the length.
 *
 * <p>It plays its fixed seed only, unless -Dbuzz.entries.seed.explore=true: other seeds still find an
 * open defect of this mode (seeds 4242 and -2392584303722642393 at 1,000 operations: a page window that
 * yields no entry leaves a sealed cursor position naming an artifact the reader was never given, against
 * PROTOCOL 4.2), which is why the gate stays off by default and runbook 08 says not to enable it yet.
 */
@IntegrationTest
class EntriesConvergencePropertyTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    private static final int OPERATIONS = Integer.getInteger("buzz.entries.operations", 1000);

    @Test
    void policyChangesAsEntriesConvergeWithoutAReset() {
        PropertySeeds.playFixed(
                "convergence with policy changes as entries",
                "buzz.entries.seed",
                seed -> new ConvergencePropertyTest.Run(RELAY, seed, true).play(OPERATIONS),
                11L);
    }
}
