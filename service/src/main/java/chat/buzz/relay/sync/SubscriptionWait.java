package chat.buzz.relay.sync;

/**
 * Why a {@link Subscription}'s run gave its worker back with work left. While it waits, only a signal
 * starts its next run, not a change: changes wait behind the step that could not go on.
 */
enum SubscriptionWait {
    NONE,
    /** The connection's queue is full: until {@link Inbox.Drained}. */
    QUEUE_FULL,
    /** The database was unreachable: until {@link Inbox.Retry}. */
    DATABASE_UNREACHABLE
}
