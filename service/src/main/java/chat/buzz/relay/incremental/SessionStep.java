package chat.buzz.relay.incremental;

import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.util.Optional;

/**
 * Where the next page of a delta read starts (PROTOCOL 4.2, 4.4).
 *
 * @param phase        bootstrap pages through D; delta pages through changes
 * @param sessionStart the database time the session began: a finished session resumes from here
 * @param after        the page holds only positions after this one
 * @param reset        the cursor's policy stamp is stale: this is a fresh bootstrap
 */
record SessionStep(Phase phase, long sessionStart, Position after, boolean reset) {

    static SessionStep plan(Optional<Cursor> since, PolicyStamp policy, long now, long overlapMicros) {
        if (since.isEmpty()) {
            return new SessionStep(Phase.BOOTSTRAP, now, Position.before(0), false);
        }
        Cursor cursor = since.get();
        if (!cursor.policy().equals(policy)) {
            return new SessionStep(Phase.BOOTSTRAP, now, Position.before(0), true);
        }
        if (cursor.phase() == Phase.FINISHED) {
            // The overlap is applied once, at the start of a session, so that a change whose commit
            // became visible late is read again.
            return new SessionStep(Phase.DELTA, now, Position.before(cursor.position().micros() - overlapMicros), false);
        }
        // A continuation never rewinds, or pages would never end.
        return new SessionStep(cursor.phase(), cursor.sessionStart(), cursor.position(), false);
    }
}
