package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.access.Overlap;
import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Where a delta read's next page starts (PROTOCOL 4.2, 4.4), without a database. */
class SessionStepTest {
    private static final Overlap OVERLAP = Overlap.ofSeconds(120);
    private static final PolicyStamp POLICY = new PolicyStamp(1_000_000_000L, 0);
    private static final PolicyStamp NEWER_POLICY = new PolicyStamp(2_000_000_000L, 0);
    private static final JudgedRows PRIOR = JudgedRows.firstPage(false, new TxSnapshot(10, 12, List.of(11L)));
    private static final JudgedRows PREVIOUS_SESSION = JudgedRows.firstPage(
                    false, new TxSnapshot(20, 25, List.of(21L, 23L)))
            .extendedBy(new Position(3_500_000_000L, 0, UUID.randomUUID()), new TxSnapshot(24, 28, List.of()));
    private static final ReadSnapshot NOW = new ReadSnapshot(5_000_000_000L, new TxSnapshot(30, 31, List.of()), POLICY);
    private static final Position SAVED = new Position(4_000_000_000L, 1, UUID.randomUUID());

    private static Cursor cursor(Phase phase, PolicyStamp policy) {
        return new Cursor(
                7,
                new byte[16],
                new byte[16],
                policy,
                phase,
                3_000_000_000L,
                2_500_000_000L,
                PRIOR,
                PREVIOUS_SESSION,
                SAVED);
    }

    private static SessionStep plan(Cursor cursor, PolicyStamp policy) {
        return SessionStep.plan(Optional.ofNullable(cursor), policy, NOW, OVERLAP);
    }

    @Test
    void noCursorBootstrapsFromTheStart() {
        SessionStep step = plan(null, POLICY);
        assertThat(step)
                .isEqualTo(new SessionStep(
                        Phase.BOOTSTRAP,
                        POLICY,
                        NOW.nowMicros(),
                        NOW.nowMicros(),
                        JudgedRows.NONE,
                        JudgedRows.firstPage(true, NOW.snapshot(), NOW.nowMicros()),
                        Position.before(0),
                        false));
    }

    @Test
    void aStalePolicyStampBootstrapsAgainWithReset() {
        for (Phase phase : List.of(Phase.DELTA, Phase.FINISHED)) {
            SessionStep step = plan(cursor(phase, POLICY), NEWER_POLICY);
            assertThat(step)
                    .as(phase.name())
                    .isEqualTo(new SessionStep(
                            Phase.BOOTSTRAP,
                            NEWER_POLICY,
                            NOW.nowMicros(),
                            NOW.nowMicros(),
                            JudgedRows.NONE,
                            JudgedRows.firstPage(true, NOW.snapshot(), NOW.nowMicros()),
                            Position.before(0),
                            true));
        }
    }

    @Test
    void aRunningBootstrapFinishesUnderItsOwnStampEvenWhenTheStampMovesOn() {
        SessionStep step = plan(cursor(Phase.BOOTSTRAP, POLICY), NEWER_POLICY);
        assertThat(step)
                .isEqualTo(new SessionStep(
                        Phase.BOOTSTRAP,
                        POLICY,
                        3_000_000_000L,
                        2_500_000_000L,
                        PRIOR,
                        PREVIOUS_SESSION,
                        SAVED,
                        false));
    }

    @Test
    void aDeltaContinuationResumesWhereItStoppedWithoutRewinding() {
        SessionStep step = plan(cursor(Phase.DELTA, POLICY), POLICY);
        assertThat(step)
                .isEqualTo(new SessionStep(
                        Phase.DELTA, POLICY, 3_000_000_000L, 2_500_000_000L, PRIOR, PREVIOUS_SESSION, SAVED, false));
    }

    @Test
    void aFinishedSessionStartsTheNextOneAnOverlapEarlierAndSkipsWhatItJudged() {
        SessionStep step = plan(cursor(Phase.FINISHED, POLICY), POLICY);
        long start = OVERLAP.windowStart(SAVED.micros());
        assertThat(step)
                .isEqualTo(new SessionStep(
                        Phase.DELTA,
                        POLICY,
                        NOW.nowMicros(),
                        start,
                        PREVIOUS_SESSION,
                        JudgedRows.firstPage(false, NOW.snapshot(), NOW.nowMicros()),
                        Position.before(start),
                        false));
    }

    @Test
    void theFloorOfANewSessionIsNeverBeforeThePolicyStamp() {
        PolicyStamp recent = new PolicyStamp(SAVED.micros() - OVERLAP.micros() / 2, 0);
        SessionStep step = plan(cursor(Phase.FINISHED, recent), recent);
        assertThat(step.floor()).isEqualTo(recent.micros());
        assertThat(step.after()).isEqualTo(Position.before(OVERLAP.windowStart(SAVED.micros())));
    }

    @Test
    void aRestoredDatabaseIsAPolicyChange() {
        PolicyStamp restored = new PolicyStamp(POLICY.micros(), 99);
        assertThat(plan(cursor(Phase.FINISHED, POLICY), restored).reset()).isTrue();
    }
}
