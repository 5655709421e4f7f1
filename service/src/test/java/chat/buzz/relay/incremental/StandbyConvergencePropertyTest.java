package chat.buzz.relay.incremental;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.PropertySeeds;
import chat.buzz.relay.testing.StreamingStandby;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The steady convergence walks ({@link SteadyConvergencePropertyTest}, with and without channel policy
 * changes as entries) with reads routed to a hot standby whose replay is paused and resumed at random
 * points. The lag bound is short (2 s), so routing also moves reads to the primary and back while the
 * walk goes on. The same oracles hold: no reset, no page naming an artifact twice, no leak, no head sent
 * again, and exactly D after every session that ran with replay going. Replay a seed with
 * -Dbuzz.standby.seed=N (or -Dbuzz.standby.entries.seed=N); -Dbuzz.standby.operations=N sets the length.
 */
@IntegrationTest
class StandbyConvergencePropertyTest {
    private static final StreamingStandby STANDBY = StreamingStandby.shared();
    private static final ConfigOverride SHORT_LAG_BOUND = ConfigOverride.config("database.replicaMaxLag", "2s");

    @Order(1)
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"), SHORT_LAG_BOUND)
            .readingFrom(STANDBY);

    @Order(2)
    @RegisterExtension
    static final TestRelay ENTRIES_RELAY = TestRelay.create(
                    ConfigOverride.config("gates.incremental", "true"),
                    ConfigOverride.config("gates.scopedPolicy", "true"),
                    SHORT_LAG_BOUND)
            .readingFrom(STANDBY);

    private static final int OPERATIONS = Integer.getInteger("buzz.standby.operations", 400);

    /** A walk that failed while replay was paused leaves it paused for the next one otherwise. */
    @AfterEach
    void replayGoesOn() {
        STANDBY.resumeReplay();
    }

    @Test
    void everySessionWithReplayGoingEndsWithExactlyTheDiscoverableSet() {
        PropertySeeds.play(
                "steady incremental on a standby",
                "buzz.standby.seed",
                seed -> new SteadyConvergencePropertyTest.Run(RELAY, seed, false, "buzz.standby.seed")
                        .withReplayPausedAtRandom(STANDBY)
                        .play(OPERATIONS),
                13L);
    }

    @Test
    void policyChangesAsEntriesOnAStandbyLeaveEverySessionWithExactlyTheDiscoverableSet() {
        PropertySeeds.play(
                "steady incremental with policy changes on a standby",
                "buzz.standby.entries.seed",
                seed -> new SteadyConvergencePropertyTest.Run(ENTRIES_RELAY, seed, true, "buzz.standby.entries.seed")
                        .withReplayPausedAtRandom(STANDBY)
                        .play(OPERATIONS),
                13L);
    }
}
