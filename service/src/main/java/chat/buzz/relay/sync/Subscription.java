package chat.buzz.relay.sync;

import chat.buzz.relay.gate.Gate;
import java.util.ArrayDeque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One REQ: streams the snapshot, then applies live changes in arrival order. It is registered for
 * changes before the snapshot query starts and holds them until EOSE, so a change that commits
 * while the snapshot streams is delivered after it (possibly twice, which clients tolerate).
 * All work for one subscription runs serially on the hub's worker pool; frames are queued under
 * this object's lock together with the cancelled check, so nothing follows a CLOSED.
 */
final class Subscription {
    private static final Logger LOG = LoggerFactory.getLogger(Subscription.class);

    private final SyncSession owner;
    private final SyncHub hub;
    private final String id;
    private final SyncFilter filter;
    private final ArrayDeque<Change> pending = new ArrayDeque<>();
    private boolean snapshotDone;
    /**
     * Database time (micros) before the snapshot, less the overlap: removals go to this subscriber for
     * artifacts it could have held since then. Set before the snapshot, read by later work on the
     * same serial chain.
     */
    private volatile long floor;
    private boolean scheduled;
    private boolean cancelled;

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
        }
        hub.submit(this::run);
    }

    /** Called on the listener thread: must stay cheap. */
    void offer(Change change) {
        boolean overflow = false;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            if (pending.size() >= hub.config().getPendingChanges()) {
                overflow = true;
            } else {
                pending.add(change);
                if (scheduled || !snapshotDone) {
                    return;
                }
                scheduled = true;
            }
        }
        if (overflow) {
            close("sync_reset: too many changes waiting for this subscription; subscribe again");
        } else {
            hub.submit(this::run);
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
            queued = owner.outbox().offer(Frames.closed(id, message));
        }
        hub.unregister(this);
        owner.forget(this);
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
    }

    private void run() {
        try {
            if (!isSnapshotDone()) {
                if (!snapshot()) {
                    return;
                }
                synchronized (this) {
                    snapshotDone = true;
                }
            }
            drain();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("Sync subscription failed", e);
            close("error: the relay could not serve this subscription; subscribe again");
        }
    }

    private synchronized boolean isSnapshotDone() {
        return snapshotDone;
    }

    private boolean snapshot() throws InterruptedException {
        List<UUID> ttl = filter.scoped() ? hub.reads().ttlChannelsInScope(community(), owner.reader(), filter) : List.of();
        if (!ttl.isEmpty()) {
            close("invalid: channel " + ttl.get(0) + " has a ttl; its artifacts are ephemeral and never synced");
            return false;
        }
        floor = hub.reads().floor(community(), hub.overlapSeconds());
        return streamDiscoverable(null) && emitBulk(Frames.eose(id));
    }

    private void drain() throws InterruptedException {
        while (true) {
            Change change;
            synchronized (this) {
                change = cancelled ? null : pending.poll();
                if (change == null) {
                    scheduled = false;
                    return;
                }
            }
            if (!hub.gates().isEnabled(Gate.SYNC)) {
                close("sync_unavailable: WebSocket sync was turned off");
                return;
            }
            apply(change);
        }
    }

    private void apply(Change change) throws InterruptedException {
        switch (change.kind()) {
            case HEAD -> headChanged(change);
            case MEMBER -> memberChanged(change);
            case POLICY -> close("sync_reset: policy changed");
        }
    }

    private void headChanged(Change change) {
        // A scoped reader holds only artifacts of its scope, and any move out of it was a change of its own.
        UUID from = change.from() == null ? change.channel() : change.from();
        if (!inScope(from) && !inScope(change.channel())) {
            return;
        }
        var view = hub.reads().head(community(), owner.reader(), filter, floor, change.d()).orElse(null);
        if (view == null) {
            return;
        }
        if (view.discoverable()) {
            emitLive(Frames.event(id, view.json()));
        } else if (view.reason() != null) {
            // Judged against the head as it is now, not as the change saw it: a change handled late
            // must not name a channel the artifact passed through and the reader cannot read.
            emitLive(Frames.event(id, hub.removals().removal(change.d(), view.named(), view.reason())));
        }
    }

    /**
     * The reader's access to one channel changed: every artifact of it that is now in D goes out, and
     * every one that is not but that the reader could have held is removed.
     */
    private void memberChanged(Change change) throws InterruptedException {
        if (!change.pubkey().equals(owner.reader()) || !inScope(change.channel())) {
            return;
        }
        if (!streamDiscoverable(change.channel())) {
            return;
        }
        int chunk = hub.config().getSnapshotChunk();
        UUID after = null;
        while (true) {
            List<SyncReads.ReaderView> rows = hub.reads().leftChannelChunk(community(), owner.reader(), filter, floor,
                    change.channel(), after, chunk);
            for (SyncReads.ReaderView row : rows) {
                if (!emitBulk(Frames.event(id, hub.removals().removal(row.d(), row.named(), row.reason())))) {
                    return;
                }
            }
            if (rows.size() < chunk) {
                return;
            }
            after = rows.get(rows.size() - 1).d();
        }
    }

    /** Streams D (or its part in one channel) in keyset chunks; a full queue makes this wait. */
    private boolean streamDiscoverable(UUID onlyChannel) throws InterruptedException {
        int chunk = hub.config().getSnapshotChunk();
        UUID after = null;
        while (true) {
            List<SyncReads.Row> rows = hub.reads().discoverableChunk(community(), owner.reader(), filter,
                    onlyChannel, after, chunk);
            for (SyncReads.Row row : rows) {
                if (!emitBulk(Frames.event(id, row.json()))) {
                    return false;
                }
            }
            if (rows.size() < chunk) {
                return true;
            }
            after = rows.get(rows.size() - 1).d();
        }
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

    /** Part of a bulk stream: waits for room, up to the send timeout, instead of giving up at once. */
    private boolean emitBulk(String frame) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(hub.config().getSendTimeoutSeconds());
        while (true) {
            synchronized (this) {
                if (cancelled) {
                    return false;
                }
                if (owner.outbox().offer(frame)) {
                    return true;
                }
                if (owner.outbox().isClosing()) {
                    return false;
                }
            }
            hub.waitedForRoom();
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0 || !owner.outbox().awaitRoom(frame, left)) {
                if (!owner.outbox().isClosing()) {
                    owner.tooSlow();
                }
                return false;
            }
        }
    }
}
