package chat.buzz.relay.incremental;

import chat.buzz.relay.incremental.Cursor.Position;

/**
 * Which candidates a delta page considers: those after {@code after} that were written by a transaction
 * the previous session did not see finished.
 *
 * @param priorXmin    rows of transactions older than this 64-bit id are skipped (0: none are)
 * @param snapshotXmax the page's snapshot xmax, against which 32-bit row xids are widened
 */
record DeltaWindow(Position after, long priorXmin, long snapshotXmax) {}
