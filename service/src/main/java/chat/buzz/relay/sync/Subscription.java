package chat.buzz.relay.sync;

import chat.buzz.relay.changes.Change;
import chat.buzz.relay.database.DatabaseFaults;
import chat.buzz.relay.database.ReadTransaction;
import chat.buzz.relay.gate.Gate;
import java.util.ArrayDeque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One REQ: streams the snapshot, then applies live changes in arrival order. It is registered for
 * changes before the snapshot query starts and holds them until EOSE, so a change that commits
 * while the snapshot streams is delivered after it (possibly twice, which clients tolerate).
 * All work for one subscription runs serially on the hub's workers, in short tasks: a bulk
 * stream parks on a full queue instead of waiting for the client (see {@link BulkStream}). Frames
 * are queued under this object's lock together with the cancelled check, so nothing follows a CLOSED.
 */
final class Subscription implements BulkStream.Target {
    private static final Logger LOG = LoggerFactory.getLogger(Subscription.class);

    private final SyncSession owner;
    private final SyncHub hub;
    private final String id;
    private final SyncFilter filter;
    private final ArrayDeque<Queued> pending = new ArrayDeque<>();
    private final Runnable resume = this::resume;
    /**
     * The stream in progress (the snapshot, or a grant's): written only by the task running this
     * subscription, read by {@link #submit} to pick the workers of the next step.
     */
    private volatile BulkStream bulk;

    private boolean snapshotDone;
    /**
     * Database time (micros) before the snapshot, less the overlap: removals go to this subscriber for
     * artifacts it could have held since then. Set before the snapshot, read by later work on the
     * same serial chain.
     */
    private volatile long floor;

    private boolean scheduled;
    private boolean cancelled;
    /** Tasks of this subscription on a worker: the one running, and briefly the one that resumed it. */
    private int running;

    private boolean snapshotCounted;
    private ScheduledFuture<?> snapshotDeadline;
    /** When this subscription's steps began to fail for an unreachable database (0: they do not). */
    private long unreachableSinceNanos;

    /** How long a live subscription waits for an unreachable database before it ends. */
    static final long OUTAGE_PATIENCE_SECONDS = 30;

    Subscription(SyncSession owner, SyncHub hub, String id, SyncFilter filter) {
        this.owner = owner;
        this.hub = hub;
        this.id = id;
        this.filter = filter;
    }

    String id() {
        return id;
    }

    long community() {
        return owner.community().id();
    }

    void start() {
        hub.register(this);
        synchronized (this) {
            scheduled = true;
            snapshotCounted = true;
            hub.snapshotStarted();
            snapshotDeadline = hub.schedule(this::snapshotOverdue, hub.config().getSnapshotTimeoutSeconds());
        }
        submit();
    }

    /**
     * The next step goes to the stream workers while a bulk stream is in progress (or about to begin),
     * otherwise to the live workers: a live subscriber's changes never queue behind anyone's snapshot.
     */
    private void submit() {
        if (bulk != null || !isSnapshotDone()) {
            hub.submitStream(owner, this::run);
        } else {
            hub.submitLive(owner, this::run);
        }
    }

    /**
     * A change waiting to be applied; {@code event} is what the fan-out already judged this reader gets,
     * or null when the subscription judges the change itself.
     */
    private record Queued(Change change, String event) {}

    /** Whether a head change can concern this subscriber: a scoped reader holds only artifacts of its scope. */
    boolean concerns(Change change) {
        // Any move out of the scope was a change of its own.
        UUID from = change.from() == null ? change.channel() : change.from();
        return inScope(from) || inScope(change.channel());
    }

    /** Who the fan-out judges live changes for, or null while the snapshot streams (its floor is not set yet). */
    synchronized SyncReads.Judging judging() {
        return snapshotDone && !cancelled ? new SyncReads.Judging(owner.reader(), floor, filter.scope()) : null;
    }

    /** Called by the fan-out: must stay cheap. The subscription judges the change itself. */
    void offer(Change change) {
        enqueue(new Queued(change, null));
    }

    /** Called by the fan-out with the event it judged this reader gets. */
    void offer(Change change, String event) {
        enqueue(new Queued(change, event));
    }

    /** Only queues: the frame goes out on this subscription's worker, so the fan-out thread never touches a socket. */
    private void enqueue(Queued item) {
        boolean overflow = false;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            if (pending.size() >= hub.config().getPendingChanges()) {
                overflow = true;
            } else {
                pending.add(item);
                if (scheduled || !snapshotDone) {
                    return;
                }
                scheduled = true;
            }
        }
        if (overflow) {
            close("sync_reset: too many changes waiting for this subscription; subscribe again");
        } else {
            submit();
        }
    }

    /** Ends the subscription with {@code ["CLOSED", id, message]}. */
    void close(String message) {
        boolean queued;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            pending.clear();
            queued = owner.outbox().offerLastWord(Frames.closed(id, message));
        }
        hub.unregister(this);
        owner.forget(this);
        released();
        // Outside the lock: giving up on the connection cancels its other subscriptions, each under its own lock.
        if (!queued) {
            owner.tooSlow();
        }
    }

    /** Ends the subscription without a word: the client asked (CLOSE) or went away. */
    void cancel() {
        synchronized (this) {
            cancelled = true;
            pending.clear();
        }
        hub.unregister(this);
        released();
    }

    /** A parked stream of an ended subscription is dropped at once; a running task notices when it returns. */
    private void released() {
        if (owner.outbox().unpark(resume)) {
            hub.unparked();
        }
        synchronized (this) {
            if (running > 0) {
                return;
            }
        }
        snapshotEnded();
    }

    private void snapshotEnded() {
        ScheduledFuture<?> deadline;
        synchronized (this) {
            if (!snapshotCounted) {
                return;
            }
            snapshotCounted = false;
            deadline = snapshotDeadline;
        }
        hub.snapshotEnded();
        deadline.cancel(false);
    }

    /** A snapshot that outlives its time limit ends, however far it got; the client subscribes again. */
    private void snapshotOverdue() {
        synchronized (this) {
            if (!snapshotCounted || cancelled) {
                return;
            }
        }
        hub.snapshotTimedOut();
        close("error: the snapshot did not finish within " + hub.config().getSnapshotTimeoutSeconds()
                + " s; read faster or narrow #h, then subscribe again");
    }

    private void resume() {
        hub.unparked();
        submit();
    }

    private void run() {
        synchronized (this) {
            running++;
        }
        try {
            if (isCancelled()) {
                return;
            }
            if (!isSnapshotDone() && bulk == null && !beginSnapshot()) {
                return;
            }
            if (bulk != null && !continueBulk()) {
                return;
            }
            drain();
            unreachableSinceNanos = 0;
        } catch (RuntimeException e) {
            if (DatabaseFaults.isUnreachable(e) && waitForTheDatabase()) {
                hub.outage().turnedAway(e);
            } else if (e instanceof ReadTransaction.OverBudget) {
                hub.statementTimedOut();
                close(
                        "error: a sync query ran over the relay's time budget; subscribe again later, or with a narrower #h");
            } else if (DatabaseFaults.isUnreachable(e)) {
                hub.outage().turnedAway(e);
                close("error: the database is unreachable; subscribe again in a few seconds");
            } else {
                LOG.warn("Sync subscription failed", e);
                close("error: the relay could not serve this subscription; subscribe again");
            }
        } finally {
            boolean ended;
            synchronized (this) {
                running--;
                ended = cancelled && running == 0;
            }
            if (ended) {
                snapshotEnded();
            }
        }
    }

    /**
     * A live subscription outlasts a short database outage: the change it could not judge stays first
     * in line and the same step runs again a second later, for up to {@link #OUTAGE_PATIENCE_SECONDS}.
     * Ending it instead would leave a client that only knows PROTOCOL 5 (which resubscribes on
     * sync_reset alone) without live updates; the change feed's reconnect resets every subscription
     * anyway when the outage cut the feed too. A subscription still in its snapshot fails at once.
     *
     * @return true when the step was rescheduled
     */
    private boolean waitForTheDatabase() {
        if (!isSnapshotDone()) {
            return false;
        }
        long now = System.nanoTime();
        if (unreachableSinceNanos == 0) {
            unreachableSinceNanos = now;
        } else if (now - unreachableSinceNanos > TimeUnit.SECONDS.toNanos(OUTAGE_PATIENCE_SECONDS)) {
            return false;
        }
        hub.schedule(this::submit, 1);
        return true;
    }

    private synchronized boolean isSnapshotDone() {
        return snapshotDone;
    }

    private synchronized boolean isCancelled() {
        return cancelled;
    }

    private boolean beginSnapshot() {
        List<UUID> ttl =
                filter.scoped() ? hub.reads().ttlChannelsInScope(community(), owner.reader(), filter) : List.of();
        if (!ttl.isEmpty()) {
            close("invalid: channel " + ttl.get(0) + " has a ttl; its artifacts are ephemeral and never synced");
            return false;
        }
        floor = hub.reads().floor(community(), hub.overlapSeconds());
        bulk = new BulkStream(
                List.of(discoverable(null)), Frames.eose(id), hub.config().getSnapshotChunk());
        return true;
    }

    /**
     * One step of the stream in progress.
     *
     * @return true when it finished and live changes may be applied; otherwise it was rescheduled, parked or ended
     */
    private boolean continueBulk() {
        switch (bulk.step(this)) {
            case FINISHED -> {
                bulk = null;
                boolean snapshotFinished;
                synchronized (this) {
                    snapshotFinished = !snapshotDone;
                    snapshotDone = true;
                }
                if (snapshotFinished) {
                    snapshotEnded();
                }
                return true;
            }
            case MORE -> submit();
            case PARKED, STOPPED -> {}
        }
        return false;
    }

    @Override
    public Offer offer(String frame) {
        synchronized (this) {
            if (cancelled) {
                return Offer.STOPPED;
            }
            if (owner.outbox().offer(frame)) {
                return Offer.QUEUED;
            }
        }
        return owner.outbox().isClosing() ? Offer.STOPPED : Offer.FULL;
    }

    @Override
    public boolean park() {
        hub.parked();
        if (!owner.outbox().parkUntilDrained(resume)) {
            hub.unparked();
            return false;
        }
        if (isCancelled() && owner.outbox().unpark(resume)) {
            hub.unparked();
        }
        return true;
    }

    private void drain() {
        while (true) {
            Queued change;
            synchronized (this) {
                change = cancelled ? null : pending.peek();
                if (change == null) {
                    scheduled = false;
                    return;
                }
            }
            if (!hub.gates().isEnabled(Gate.SYNC)) {
                close("sync_unavailable: WebSocket sync was turned off");
                return;
            }
            // Taken off the queue only once applied, so a step that fails for a database outage is retried.
            apply(change);
            synchronized (this) {
                if (pending.peek() == change) {
                    pending.poll();
                }
            }
            if (bulk != null) {
                submit();
                return;
            }
        }
    }

    private void apply(Queued queued) {
        if (queued.event() != null) {
            emitLive(Frames.event(id, queued.event()));
            return;
        }
        Change change = queued.change();
        switch (change.kind()) {
            case HEAD -> headChanged(change);
            case MEMBER -> memberChanged(change);
            case POLICY -> close("sync_reset: policy changed");
            case SETTINGS -> settingsChanged(change);
            case CHANNEL -> {} // a new or renamed channel changes no artifact's discoverability
        }
    }

    private void headChanged(Change change) {
        if (!concerns(change)) {
            return;
        }
        var view = hub.reads()
                .head(community(), owner.reader(), filter, floor, change.d())
                .orElse(null);
        if (view == null) {
            return;
        }
        // Judged against the head as it is now, not as the change saw it: a change handled late
        // must not name a channel the artifact passed through and the reader cannot read.
        switch (view.verdict().kind()) {
            case UPSERT -> emitLive(Frames.event(id, view.json()));
            case REMOVE -> emitLive(Frames.event(id, hub.removals().removal(change.d(), view.verdict())));
            case NOTHING -> {}
        }
    }

    /**
     * The reader's access to one channel changed: every artifact of it that is now in D goes out, and
     * every one that is not but that the reader could have held is removed.
     */
    private void memberChanged(Change change) {
        if (!change.pubkey().equals(owner.reader()) || !inScope(change.channel())) {
            return;
        }
        bulk = new BulkStream(
                List.of(discoverable(change.channel()), membershipRemovals(change.channel())),
                null,
                hub.config().getSnapshotChunk());
    }

    /**
     * A channel's policy changed and the change is delivered as entries (PROTOCOL 4.4, 5): every artifact
     * of it that entered the reader's D with this change goes out, and every one this change took out of
     * D is removed. A subscriber whose D did not change hears nothing.
     */
    private void settingsChanged(Change change) {
        if (!inScope(change.channel())) {
            return;
        }
        long settings = change.settings();
        BulkStream.Part entered =
                (after, chunk) -> hub
                        .reads()
                        .enteredChunk(community(), owner.reader(), filter, settings, change.channel(), after, chunk)
                        .stream()
                        .map(row -> new BulkStream.Framed(row.d(), Frames.event(id, row.json())))
                        .toList();
        BulkStream.Part left = (after, chunk) -> removalFrames(hub.reads()
                .leftAtChangeChunk(
                        community(), owner.reader(), filter, floor, settings, change.channel(), after, chunk));
        bulk = new BulkStream(List.of(entered, left), null, hub.config().getSnapshotChunk());
    }

    private BulkStream.Part membershipRemovals(UUID channel) {
        return (after, chunk) -> removalFrames(
                hub.reads().leftChannelChunk(community(), owner.reader(), filter, floor, channel, after, chunk));
    }

    private List<BulkStream.Framed> removalFrames(List<SyncReads.ReaderView> removed) {
        return removed.stream()
                .map(row -> new BulkStream.Framed(
                        row.d(), Frames.event(id, hub.removals().removal(row.d(), row.verdict()))))
                .toList();
    }

    /** D (or its part in one channel) in keyset chunks. */
    private BulkStream.Part discoverable(UUID onlyChannel) {
        return (after, chunk) ->
                hub.reads().discoverableChunk(community(), owner.reader(), filter, onlyChannel, after, chunk).stream()
                        .map(row -> new BulkStream.Framed(row.d(), Frames.event(id, row.json())))
                        .toList();
    }

    private boolean inScope(UUID channel) {
        return !filter.scoped() || filter.scope().contains(channel);
    }

    /** A single live change: a client whose queue is full has fallen too far behind. */
    private void emitLive(String frame) {
        synchronized (this) {
            if (cancelled || owner.outbox().offer(frame)) {
                return;
            }
        }
        owner.tooSlow();
    }
}
