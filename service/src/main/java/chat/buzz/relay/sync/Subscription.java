package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.changes.Change;
import chat.buzz.relay.gate.Gate;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

/**
 * One REQ, as a state machine that only its own serial run changes. Other threads post to its
 * {@link Inbox} and never call into its state; the run reads the signals first, then does the work of
 * its phase in one short step and gives the worker back. It is registered for changes before the
 * snapshot query starts, and changes wait in the inbox until EOSE, so a change that commits while the
 * snapshot streams is delivered after it (possibly twice, which clients tolerate). Its frames go through
 * its own {@link Outbox.Lane}, which a CLOSED or a CANCEL shuts: nothing follows a CLOSED.
 */
final class Subscription {
    private final SyncSession owner;
    private final SyncContext context;
    private final String id;
    private final SyncFilter filter;
    private final ReaderStreams streams;
    private final Inbox inbox;
    private final StepFailures failures;
    private final SubscriptionOutput output;

    // Owned by the run in progress: one at a time, handed on through the workers' queues and the inbox.
    private SubscriptionPhase phase = SubscriptionPhase.SNAPSHOT_STREAMING;
    private SubscriptionWait waiting = SubscriptionWait.NONE;
    private BulkStream bulk;
    private long floor;
    private ScheduledFuture<?> snapshotDeadline; // set by start(), before the first run

    /** Published for the fan-out once the snapshot is done and its floor is set. */
    private volatile SyncStatements.Judging judging;

    Subscription(SyncSession owner, SyncContext context, String id, SyncFilter filter) {
        this.owner = owner;
        this.context = context;
        this.id = id;
        this.filter = filter;
        this.streams = new ReaderStreams(context, owner, id, filter);
        this.inbox = new Inbox(context.config().getPendingChanges(), this::submit);
        this.failures = new StepFailures(context.outage(), context.metrics());
        this.output = new SubscriptionOutput(owner, context.metrics(), () -> inbox.post(new Inbox.Drained()));
    }

    String id() {
        return id;
    }

    long community() {
        return owner.community().id();
    }

    /** Whether a head change can concern this subscriber; the filter never changes, so any thread may ask. */
    boolean concerns(Change change) {
        return streams.concerns(change);
    }

    /** Who the fan-out judges live changes for, or null while the snapshot streams or once ended. */
    SyncStatements.Judging judging() {
        return judging;
    }

    void start() {
        context.subscriptions().add(this);
        context.metrics().snapshotStarted();
        long limit = context.config().getSnapshotTimeoutSeconds();
        snapshotDeadline = context.workers().schedule(() -> inbox.post(new Inbox.SnapshotOverdue()), limit);
        submit(false);
    }

    /** From the fan-out: the subscription judges the change itself. */
    void offer(Change change) {
        inbox.post(new Inbox.Queued(change, null));
    }

    /** From the fan-out, with the frames it judged and rendered for this subscription. */
    void offer(Change change, List<BulkStream.Framed> judged) {
        inbox.post(new Inbox.Queued(change, judged));
    }

    /** Ends the subscription with {@code ["CLOSED", id, message]}. */
    void close(String message) {
        inbox.post(new Inbox.Close(message));
    }

    /** Ends the subscription without a word; nothing more of it is queued once this returns. */
    void cancel() {
        output.shut();
        inbox.post(new Inbox.Cancel());
    }

    /**
     * Live changes (and a run that only ends the subscription) never queue behind anyone's stream. Only
     * the holder of the next run calls this: the inbox's lock orders it after the last run's writes.
     */
    private void submit(boolean ending) {
        if (ending || phase == SubscriptionPhase.LIVE) {
            context.workers().submitLive(owner, this::run);
        } else {
            context.workers().submitStream(owner, this::run);
        }
    }

    private void run() {
        Inbox.Wake next;
        try {
            next = step();
        } catch (RuntimeException e) {
            next = failed(e);
        }
        if (inbox.finish(next)) {
            submit(false);
        }
    }

    private Inbox.Wake step() {
        for (Inbox.Signal signal = inbox.nextSignal(); signal != null; signal = inbox.nextSignal()) {
            handle(signal);
        }
        if (phase == SubscriptionPhase.CLOSED) {
            return Inbox.Wake.NEVER;
        }
        if (waiting != SubscriptionWait.NONE) {
            return Inbox.Wake.SIGNAL;
        }
        if (phase == SubscriptionPhase.SNAPSHOT_STREAMING && bulk == null && !beginSnapshot()) {
            return Inbox.Wake.NEVER;
        }
        if (bulk != null) {
            BulkStream.Progress progress = bulk.step(output.target());
            failures.succeeded();
            switch (progress) {
                case FINISHED -> bulkFinished();
                case MORE -> {
                    return Inbox.Wake.AGAIN;
                }
                case PARKED -> {
                    waiting = SubscriptionWait.QUEUE_FULL;
                    return Inbox.Wake.SIGNAL;
                }
                case STOPPED -> { // the lane was shut or the connection is going: the signal that ends it is coming
                    return Inbox.Wake.SIGNAL;
                }
            }
        }
        return drain();
    }

    private void handle(Inbox.Signal signal) {
        if (signal instanceof Inbox.Close close) {
            end(close.message());
        } else if (signal instanceof Inbox.Cancel) {
            end(null);
        } else if (signal instanceof Inbox.SnapshotOverdue) {
            // A snapshot that outlives its time limit ends, however far it got; the client subscribes again.
            if (phase == SubscriptionPhase.SNAPSHOT_STREAMING) {
                context.metrics().snapshotTimedOut();
                end(streams.overdue());
            }
        } else if (signal instanceof Inbox.Drained && waiting == SubscriptionWait.QUEUE_FULL) {
            waiting = SubscriptionWait.NONE;
        } else if (signal instanceof Inbox.Retry && waiting == SubscriptionWait.DATABASE_UNREACHABLE) {
            waiting = SubscriptionWait.NONE;
        }
    }

    private boolean beginSnapshot() {
        String refusal = streams.refusal();
        if (refusal != null) {
            end(refusal);
            return false;
        }
        floor = streams.floor();
        bulk = output.admitted(streams.snapshot(floor));
        return true;
    }

    private void bulkFinished() {
        bulk = null;
        if (phase == SubscriptionPhase.SNAPSHOT_STREAMING) {
            judging = new SyncStatements.Judging(owner.reader(), floor, filter.scope());
            snapshotEnded();
        }
        phase = SubscriptionPhase.LIVE;
    }

    /** Applies waiting changes in order, until a signal arrives or a change starts a bulk stream. */
    private Inbox.Wake drain() {
        while (true) {
            if (inbox.hasSignal()) {
                return Inbox.Wake.AGAIN;
            }
            Inbox.Queued change = inbox.nextChange();
            if (change == null) {
                return Inbox.Wake.ANY;
            }
            if (!context.gates().isEnabled(Gate.SYNC)) {
                end(ErrorCodes.SYNC_UNAVAILABLE_TURNED_OFF);
                return Inbox.Wake.NEVER;
            }
            apply(change);
            inbox.applied(change);
            failures.succeeded();
            if (phase == SubscriptionPhase.CLOSED) {
                return Inbox.Wake.NEVER;
            }
            if (bulk != null) {
                phase = SubscriptionPhase.BULK_STREAMING;
                return Inbox.Wake.AGAIN;
            }
        }
    }

    private void apply(Inbox.Queued queued) {
        Change change = queued.change();
        if (queued.judged() != null) {
            applyJudged(change, queued.judged());
            return;
        }
        switch (change.kind()) {
            case HEAD -> {
                BulkStream.Framed frame = streams.headFrame(change, floor);
                if (frame != null) {
                    output.live(frame);
                }
            }
            case MEMBER -> bulk = output.admitted(streams.memberChanged(change, floor));
            case POLICY -> end(ErrorCodes.SYNC_RESET_POLICY_CHANGED);
            case SETTINGS -> bulk = output.admitted(streams.settingsChanged(change, floor));
            case CHANNEL -> {} // a new or renamed channel changes no artifact's discoverability
        }
    }

    /**
     * What the fan-out judged: a head change's frame goes out at once; a policy change's entries stream
     * like any bulk stream, so a full queue parks them instead of ending the connection.
     */
    private void applyJudged(Change change, List<BulkStream.Framed> judged) {
        if (change.kind() == Change.Kind.SETTINGS) {
            context.metrics().policyChangeEntriesSent(community(), change.settings(), judged.size());
            bulk = output.admitted(new BulkStream(
                    List.of(BulkStream.of(judged)), null, context.config().getSnapshotChunk()));
        } else {
            judged.forEach(output::live);
        }
    }

    /** The run failed; says what may start the next one. */
    private Inbox.Wake failed(RuntimeException e) {
        boolean live = phase == SubscriptionPhase.LIVE || phase == SubscriptionPhase.BULK_STREAMING;
        if (failures.retry(e, live)) {
            waiting = SubscriptionWait.DATABASE_UNREACHABLE;
            context.workers().schedule(() -> inbox.post(new Inbox.Retry()), 1);
            return Inbox.Wake.SIGNAL;
        }
        end(failures.closing(e));
        return Inbox.Wake.NEVER;
    }

    /** Ends the subscription, with a CLOSED unless {@code message} is null (CLOSE, a lost connection). */
    private void end(String message) {
        if (phase == SubscriptionPhase.CLOSED) {
            return;
        }
        boolean inSnapshot = phase == SubscriptionPhase.SNAPSHOT_STREAMING;
        phase = SubscriptionPhase.CLOSED;
        bulk = null;
        judging = null;
        inbox.end();
        Outbox.Offered said = Outbox.Offered.SHUT;
        if (message == null) {
            output.shut();
        } else {
            said = output.lastWord(Frames.closed(id, message));
            owner.forget(this);
        }
        context.subscriptions().remove(this);
        if (waiting == SubscriptionWait.QUEUE_FULL) {
            output.unpark();
        }
        waiting = SubscriptionWait.NONE;
        if (inSnapshot) {
            snapshotEnded();
        }
        // Giving up on the connection cancels its other subscriptions; each only gets a signal.
        if (said == Outbox.Offered.FULL) {
            owner.tooSlow();
        }
    }

    private void snapshotEnded() {
        context.metrics().snapshotEnded();
        snapshotDeadline.cancel(false);
    }
}
