package chat.buzz.relay.incremental;

import chat.buzz.relay.incremental.Cursor.Position;

/**
 * Which candidates a delta page considers: those after {@code after} that were written by a transaction
 * the previous session's first page could not see.
 *
 * @param prior        the previous session's first snapshot ({@link TxSnapshot#NONE}: nothing is left out)
 * @param snapshotXmax this page's snapshot xmax, against which 32-bit row xids are widened
 */
record DeltaWindow(Position after, TxSnapshot prior, long snapshotXmax) {}
