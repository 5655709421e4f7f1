package chat.buzz.relay.incremental;

import chat.buzz.relay.access.Judge;
import chat.buzz.relay.access.Overlap;
import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.util.Optional;

/**
 * Where the next page of a delta read starts (PROTOCOL 4.2, 4.4).
 *
 * @param phase        bootstrap pages through D; delta pages through changes
 * @param policy       the policy stamp the session answers for; the cursor carries it
 * @param sessionStart the database time the session began: a finished session resumes from here
 * @param floor        a delta session removes every artifact that left D and that the reader could have
 *                     held at some moment after this one
 * @param prior        the rows the previous session judged: they are not sent again
 * @param judged       the rows this session judged before this page, for the session after it
 * @param after        the page holds only positions after this one
 * @param reset        the cursor's policy stamp is stale: this is a fresh bootstrap
 */
record SessionStep(
        Phase phase,
        PolicyStamp policy,
        long sessionStart,
        long floor,
        JudgedRows prior,
        JudgedRows judged,
        Position after,
        boolean reset) {

    static SessionStep plan(Optional<Cursor> since, PolicyStamp policy, ReadSnapshot snapshot, Overlap overlap) {
        long now = snapshot.nowMicros();
        if (since.isEmpty()) {
            return bootstrap(policy, snapshot, false);
        }
        Cursor cursor = since.get();
        if (cursor.phase() == Phase.BOOTSTRAP) {
            // A running bootstrap finishes under the stamp it began with, even when the stamp moves on:
            // restarting it at every policy change would let a flood of changes starve it. Its pages
            // are judged against the current rules, and its last cursor still holds the old stamp, so
            // the next session is the reset that reconciles the store.
            return continuation(cursor, cursor.policy());
        }
        if (!cursor.policy().equals(policy)) {
            return bootstrap(policy, snapshot, true);
        }
        if (cursor.phase() == Phase.FINISHED) {
            // The overlap is applied once, at the start of a session, so that a change whose commit
            // became visible late is read again. The policy stamp last advanced for a reset, which answered
            // for everything before it, so the reader's past access is judged no further back than that;
            // policy changes delivered as entries leave the stamp alone and are judged from the channels'
            // settings history. What the previous session judged is not sent again (PROTOCOL 4.2).
            long start = overlap.windowStart(cursor.position().micros());
            return new SessionStep(
                    Phase.DELTA,
                    policy,
                    now,
                    Judge.floor(start, policy.micros()),
                    cursor.judged(),
                    JudgedRows.firstPage(false, snapshot.snapshot(), snapshot.nowMicros()),
                    Position.before(start),
                    false);
        }
        // A continuation never rewinds, or pages would never end.
        return continuation(cursor, policy);
    }

    private static SessionStep continuation(Cursor cursor, PolicyStamp policy) {
        return new SessionStep(
                cursor.phase(),
                policy,
                cursor.sessionStart(),
                cursor.floor(),
                cursor.prior(),
                cursor.judged(),
                cursor.position(),
                false);
    }

    private static SessionStep bootstrap(PolicyStamp policy, ReadSnapshot snapshot, boolean reset) {
        return new SessionStep(
                Phase.BOOTSTRAP,
                policy,
                snapshot.nowMicros(),
                snapshot.nowMicros(),
                JudgedRows.NONE,
                JudgedRows.firstPage(true, snapshot.snapshot(), snapshot.nowMicros()),
                Position.before(0),
                reset);
    }
}
