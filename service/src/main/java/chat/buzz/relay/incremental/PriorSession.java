package chat.buzz.relay.incremental;

/**
 * What a delta page knows of the session before its own, for the judge's "told left": when that
 * session began, the snapshot its first page read with, and this page's snapshot xmax, against which
 * row writers' 32-bit transaction ids are widened.
 */
record PriorSession(long startMicros, TxSnapshot firstSnapshot, long xmax) {}
