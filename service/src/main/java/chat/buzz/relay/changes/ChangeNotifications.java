package chat.buzz.relay.changes;

import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Called by the write path inside its transaction. PostgreSQL delivers a NOTIFY only when the
 * transaction commits, so a rolled-back write never reaches a subscriber, and a subscriber that
 * registered before the commit is certain to hear about it.
 */
public final class ChangeNotifications {
    /** Tells subscribers on every instance to resubscribe when a channel's discoverability changes. */
    public static final PolicyChangeRecorder POLICY_RECORDER =
            (handle, communityId, channelId, change, actor) -> send(handle, Change.policy(communityId, channelId));

    private ChangeNotifications() {}

    /** An artifact's head changed: create, edit, move, delete, restore, or the head was redacted. */
    public static void headChanged(Handle handle, long communityId, UUID d, UUID fromChannel, UUID channel) {
        send(handle, Change.head(communityId, d, fromChannel, channel));
    }

    /** A revision was redacted; only a redacted head changes what subscribers see. */
    public static void revisionRedacted(Handle handle, long communityId, String eventId) {
        handle.createQuery(ChangeQueries.HEAD_OF_EVENT)
                .bind("community", communityId)
                .bind("event", eventId)
                .map((rs, ctx) -> rs.getObject("channel_id", UUID.class) == null
                        ? null
                        : Change.head(
                                communityId,
                                rs.getObject("d", UUID.class),
                                rs.getObject("channel_id", UUID.class),
                                rs.getObject("channel_id", UUID.class)))
                .findOne()
                .ifPresent(change -> send(handle, change));
    }

    /** A membership was added, re-added, changed, removed, joined or left. */
    public static void memberChanged(Handle handle, long communityId, UUID channel, String pubkey) {
        send(handle, Change.member(communityId, channel, pubkey));
    }

    private static void send(Handle handle, Change change) {
        handle.createQuery(ChangeQueries.NOTIFY)
                .bind("channel", ChangeQueries.NOTIFY_CHANNEL)
                .bind("payload", change.toPayload())
                .mapToMap()
                .list();
    }
}
