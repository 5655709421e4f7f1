package chat.buzz.relay.artifact;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.relay.access.AccessLookup;
import chat.buzz.relay.access.ChannelAccess;
import chat.buzz.relay.artifact.RevisionTags.Op;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.changes.ChangeNotifications;
import chat.buzz.relay.events.EventHandler;
import chat.buzz.relay.events.WriteRejection;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** PROTOCOL 3.2 and 3.3: artifact revisions, accepted by compare-and-set on the head. */
public final class ArtifactWrites implements EventHandler {
    private static final String NOT_WRITABLE = "artifact not found or not writable";
    private static final String CHANNEL_NOT_WRITABLE = "channel not found or not writable";

    private final RemovalMarkers markers;

    public ArtifactWrites(RemovalMarkers markers) {
        this.markers = markers;
    }

    @Override
    public void apply(Handle handle, Caller caller, Event event) {
        RevisionTags revision = RevisionTags.parse(event);
        long community = caller.community().id();
        ArtifactDao dao = ArtifactDao.on(handle);
        Optional<ArtifactHead> head = dao.lockHead(community, revision.d());
        if (revision.op() == Op.CREATE) {
            create(handle, dao, caller, event, revision, head);
            return;
        }
        ArtifactHead current = head.orElseThrow(() -> WriteRejection.blocked(NOT_WRITABLE));
        if (!writable(handle, caller, current.channelId())) {
            throw WriteRejection.blocked(NOT_WRITABLE);
        }
        if (!revision.prev().orElseThrow().equals(current.headEventId())) {
            throw WriteRejection.conflict("artifact head changed");
        }
        checkTransition(revision, current);
        if (revision.op() == Op.MOVE && !writable(handle, caller, revision.channel())) {
            throw WriteRejection.blocked("no write access to the destination channel");
        }
        dao.advance(
                community,
                revision.d(),
                revision.channel(),
                event.id(),
                revision.op() == Op.DELETE,
                Kinds.ARTIFACT_REVISION,
                revision.op().wireName(),
                current.headEventId(),
                caller.pubkey(),
                ChangeNotifications.CHANNEL,
                ChangeNotifications.headChangedNotice(
                        community, revision.d(), current.channelId(), revision.channel()));
        if (revision.op() == Op.MOVE) {
            markers.recordMove(handle, community, revision.d(), current.channelId(), current.headEventId());
        }
    }

    private static void create(
            Handle handle,
            ArtifactDao dao,
            Caller caller,
            Event event,
            RevisionTags revision,
            Optional<ArtifactHead> head) {
        if (head.isPresent()) {
            throw taken(handle, caller, head.get());
        }
        if (!writable(handle, caller, revision.channel())) {
            throw WriteRejection.blocked(CHANNEL_NOT_WRITABLE);
        }
        long community = caller.community().id();
        int created = dao.create(
                community,
                revision.d(),
                revision.channel(),
                event.id(),
                revision.type(),
                Kinds.ARTIFACT_REVISION,
                caller.pubkey(),
                ChangeNotifications.CHANNEL,
                ChangeNotifications.headChangedNotice(community, revision.d(), revision.channel(), revision.channel()));
        if (created == 0) {
            // A concurrent create of the same d committed first: judged as if it had come before.
            throw dao.lockHead(community, revision.d())
                    .map(winner -> taken(handle, caller, winner))
                    .orElseGet(() -> WriteRejection.conflict("artifact already exists"));
        }
    }

    /**
     * A create whose d is taken (PROTOCOL 3): a conflict only for a writer who can read the artifact's
     * channel; anyone else gets the refusal of an inaccessible channel, so the refusal confirms nothing.
     */
    private static WriteRejection taken(Handle handle, Caller caller, ArtifactHead existing) {
        return writable(handle, caller, existing.channelId())
                ? WriteRejection.conflict("artifact already exists")
                : WriteRejection.blocked(CHANNEL_NOT_WRITABLE);
    }

    private static void checkTransition(RevisionTags revision, ArtifactHead current) {
        if (!revision.type().equals(current.type())) {
            throw WriteRejection.invalid("type never changes for an artifact (it is " + current.type() + ")");
        }
        if (current.deleted() && revision.op() != Op.RESTORE) {
            throw WriteRejection.conflict("artifact is deleted; only restore may follow delete");
        }
        if (!current.deleted() && revision.op() == Op.RESTORE) {
            throw WriteRejection.conflict("only a deleted artifact can be restored");
        }
        boolean channelChanges = !revision.channel().equals(current.channelId());
        if (revision.op() == Op.MOVE && !channelChanges) {
            throw WriteRejection.invalid("a move must change h");
        }
        if (revision.op() != Op.MOVE && channelChanges) {
            throw WriteRejection.invalid("only a move may change h");
        }
    }

    private static boolean writable(Handle handle, Caller caller, UUID channel) {
        ChannelAccess access = AccessLookup.lookup(
                handle, caller.community().id(), channel, caller.pubkey(), AccessLookup.Lock.SHARED);
        return access.canWrite();
    }
}
