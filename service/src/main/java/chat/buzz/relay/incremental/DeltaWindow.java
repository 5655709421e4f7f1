package chat.buzz.relay.incremental;

import chat.buzz.relay.incremental.Cursor.Position;

/**
 * Which candidates a delta page considers: those after {@code after} that the previous session did not
 * judge.
 *
 * @param prior        what the previous session judged ({@link JudgedRows#NONE}: nothing is left out)
 * @param snapshotXmax this page's snapshot xmax, against which 32-bit row xids are widened
 * @param floorMicros  the session's floor ({@link SessionStep#floor}): where its window began, for
 *                     every page of the session alike
 */
record DeltaWindow(Position after, JudgedRows prior, long snapshotXmax, long floorMicros) {}
