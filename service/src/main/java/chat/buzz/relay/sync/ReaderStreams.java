package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.changes.Change;
import chat.buzz.relay.changes.PolicyChangeDirection;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * What one subscription's reader gets, read from the database and already framed for its id: the
 * snapshot, a live head change, and the bulk streams of a membership or settings change. Holds no
 * state of the subscription: the floor is passed in by the subscription, which owns it.
 */
final class ReaderStreams {
    private final SyncContext context;
    private final SyncSession owner;
    private final String id;
    private final SyncFilter filter;

    ReaderStreams(SyncContext context, SyncSession owner, String id, SyncFilter filter) {
        this.context = context;
        this.owner = owner;
        this.id = id;
        this.filter = filter;
    }

    private long community() {
        return owner.community().id();
    }

    /** Why the REQ is refused before its snapshot, or null: a scope may not name a TTL channel. */
    String refusal() {
        List<UUID> ttl =
                filter.scoped() ? context.reads().ttlChannelsInScope(community(), owner.reader(), filter) : List.of();
        return ttl.isEmpty()
                ? null
                : ErrorCodes.INVALID_PREFIX + "channel " + ttl.get(0)
                        + " has a ttl; its artifacts are ephemeral and never synced";
    }

    /** The CLOSED message of a snapshot that outlived its time limit: the client subscribes again. */
    String overdue() {
        return ErrorCodes.ERROR_PREFIX + "the snapshot did not finish within "
                + context.config().getSnapshotTimeoutSeconds() + " s; read faster or narrow #h, then subscribe again";
    }

    /**
     * Database time (micros) before the snapshot, less the overlap: removals go to this subscriber for
     * artifacts it could have held since then.
     */
    long floor() {
        return context.reads().floor(community());
    }

    /** D in keyset chunks, then EOSE, for a subscription whose removal floor is {@code floor}. */
    BulkStream snapshot(long floor) {
        return new BulkStream(List.of(discoverable(null, floor)), Frames.eose(id), chunk());
    }

    /** Whether a head change can concern this subscriber: a scoped reader holds only artifacts of its scope. */
    boolean concerns(Change change) {
        // Any move out of the scope was a change of its own.
        UUID from = change.from() == null ? change.channel() : change.from();
        return inScope(from) || inScope(change.channel());
    }

    /**
     * The frame a head change gives this reader, or null. Judged against the head as it is now, not as
     * the change saw it: a change handled late must not name a channel the artifact passed through and
     * the reader cannot read.
     */
    BulkStream.Framed headFrame(Change change, long floor) {
        if (!concerns(change)) {
            return null;
        }
        var view = context.reads()
                .head(community(), owner.reader(), filter, floor, change.d())
                .orElse(null);
        if (view == null) {
            return null;
        }
        return switch (view.verdict().kind()) {
            case UPSERT -> BulkStream.Framed.upsert(change.d(), Frames.event(id, view.json()));
            case REMOVE ->
                BulkStream.Framed.removal(
                        change.d(), Frames.event(id, context.removals().removal(change.d(), view.verdict())));
            case NOTHING -> null;
        };
    }

    /**
     * The reader's access to one channel changed: every artifact of it that is now in D goes out, and
     * every one that is not but that the reader could have held is removed. Null when it is not this
     * reader or not this scope.
     */
    BulkStream memberChanged(Change change, long floor) {
        if (!change.pubkey().equals(owner.reader()) || !inScope(change.channel())) {
            return null;
        }
        return new BulkStream(
                List.of(discoverable(change.channel(), floor), membershipRemovals(change.channel(), floor)),
                null,
                chunk());
    }

    /**
     * A channel's policy changed and the change is delivered as entries (PROTOCOL 4.4, 5): every artifact
     * of it that entered the reader's D with this change goes out, and every one this change took out of
     * D is removed. A subscriber whose D did not change hears nothing. Null when the channel is out of scope.
     * Used when the fan-out left the change to each subscription: during its snapshot, or for a channel too
     * large to judge for every subscriber at once.
     */
    BulkStream settingsChanged(Change change, long floor) {
        if (!inScope(change.channel())) {
            return null;
        }
        long settings = change.settings();
        BulkStream.Part entered =
                (after, chunk) -> context
                        .reads()
                        .enteredChunk(community(), owner.reader(), filter, settings, change.channel(), after, chunk)
                        .stream()
                        .map(row -> BulkStream.Framed.upsert(row.d(), Frames.event(id, row.json())))
                        .toList();
        BulkStream.Part left = (after, chunk) -> removalFrames(context.reads()
                .leftAtChangeChunk(
                        community(), owner.reader(), filter, floor, settings, change.channel(), after, chunk));
        // A change that can only narrow D brings nobody anything, one that can only widen it takes nothing:
        // the stream asks only for the way the change can go.
        PolicyChangeDirection direction = PolicyChangeDirection.orBoth(change.direction());
        List<BulkStream.Part> parts = new ArrayList<>(2);
        if (direction.mayAdd()) {
            parts.add(counted(entered, settings));
        }
        if (direction.mayRemove()) {
            parts.add(counted(left, settings));
        }
        return new BulkStream(parts, null, chunk());
    }

    /** The console shows, beside the resets, how many entries a change delivered as entries sent. */
    private BulkStream.Part counted(BulkStream.Part part, long settings) {
        return (after, chunk) -> {
            List<BulkStream.Framed> framed = part.read(after, chunk);
            context.metrics().policyChangeEntriesSent(community(), settings, framed.size());
            return framed;
        };
    }

    private BulkStream.Part membershipRemovals(UUID channel, long floor) {
        return (after, chunk) -> removalFrames(
                context.reads().leftChannelChunk(community(), owner.reader(), filter, floor, channel, after, chunk));
    }

    private List<BulkStream.Framed> removalFrames(List<SyncStatements.ReaderView> removed) {
        return removed.stream()
                .map(row -> BulkStream.Framed.removal(
                        row.d(), Frames.event(id, context.removals().removal(row.d(), row.verdict()))))
                .toList();
    }

    /** D (or its part in one channel) in keyset chunks. */
    private BulkStream.Part discoverable(UUID onlyChannel, long floor) {
        return (after, chunk) ->
                context
                        .reads()
                        .discoverableChunk(community(), owner.reader(), filter, floor, onlyChannel, after, chunk)
                        .stream()
                        .map(row -> BulkStream.Framed.upsert(row.d(), Frames.event(id, row.json())))
                        .toList();
    }

    private boolean inScope(UUID channel) {
        return !filter.scoped() || filter.scope().contains(channel);
    }

    private int chunk() {
        return context.config().getSnapshotChunk();
    }
}
