package chat.buzz.relay.sync;

/**
 * Where a {@link Subscription} is in its life. Only the subscription's own serial run moves it on:
 * SNAPSHOT_STREAMING to LIVE at EOSE, LIVE to BULK_STREAMING and back for a membership or settings
 * change, and any of them to CLOSED, after which nothing of it is sent.
 */
enum SubscriptionPhase {
    /** The snapshot streams; changes wait in the inbox until EOSE. */
    SNAPSHOT_STREAMING,
    /** Past EOSE: changes are applied as they come. */
    LIVE,
    /** A membership or settings change streams what it brought (a grant's stream); changes wait. */
    BULK_STREAMING,
    CLOSED
}
