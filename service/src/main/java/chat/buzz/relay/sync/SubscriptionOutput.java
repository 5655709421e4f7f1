package chat.buzz.relay.sync;

/**
 * A subscription's way to its client: its own {@link Outbox.Lane}, and what it already told its reader
 * ({@link ToldLeft}), which every frame it sends passes. Only the subscription's run uses the told-left
 * memory; shutting the lane is safe from any thread (the outbox's lock orders it).
 */
final class SubscriptionOutput {
    private final SyncSession owner;
    private final Outbox.Lane lane;
    private final ToldLeft toldLeft = new ToldLeft();
    private final BulkStream.Target target;
    private final SyncMetrics metrics;
    private final Runnable drained;

    /** @param drained tells the subscription, on whatever thread drained the outbox, that a parked stream may go on */
    SubscriptionOutput(SyncSession owner, SyncMetrics metrics, Runnable drained) {
        this.owner = owner;
        this.metrics = metrics;
        this.lane = owner.outbox().lane();
        this.drained = () -> {
            metrics.unparked();
            drained.run();
        };
        this.target = new BulkStream.LaneTarget(owner.outbox(), lane, metrics, this.drained);
    }

    /** A parked stream that ended: it no longer waits for the outbox to drain. */
    void unpark() {
        if (owner.outbox().unpark(drained)) {
            metrics.unparked();
        }
    }

    /** Where bulk streams queue their frames; a full queue parks them. */
    BulkStream.Target target() {
        return target;
    }

    /** {@code stream}, passing only frames that agree with what the reader was told. */
    BulkStream admitted(BulkStream stream) {
        return stream == null ? null : stream.admitting(toldLeft::admit);
    }

    /** A single live change: a client whose queue is full has fallen too far behind. */
    void live(BulkStream.Framed framed) {
        if (!toldLeft.admit(framed)) {
            return;
        }
        if (owner.outbox().offer(lane, framed.frame()) == Outbox.Offered.FULL) {
            owner.tooSlow();
        }
    }

    /** The subscription's CLOSED; nothing of it follows. */
    Outbox.Offered lastWord(String frame) {
        return owner.outbox().offerLastWord(lane, frame);
    }

    /** Nothing more of the subscription is queued once this returns. */
    void shut() {
        owner.outbox().shut(lane);
    }
}
