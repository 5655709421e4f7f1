package chat.buzz.relay.changes;

import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Called by the write path inside its transaction. PostgreSQL delivers a NOTIFY only when the
 * transaction commits, so a rolled-back write never reaches a subscriber, and a subscriber that
 * registered before the commit is certain to hear about it.
 */
public final class ChangeNotifications {
    /**
     * Tells subscribers on every instance that a channel's discoverability changed: to resubscribe when
     * the change was a reset, or to apply what it changed for them when it is delivered as entries.
     */
    public static final PolicyChangeRecorder POLICY_RECORDER =
            (handle, communityId, channelId, change, actor, delivered) -> send(
                    handle,
                    delivered.asEntries()
                            ? Change.settings(communityId, channelId, delivered.settingsChange())
                            : Change.policy(communityId, channelId));

    private ChangeNotifications() {}

    /** The NOTIFY channel, for a writer that sends a notice with {@code pg_notify} in a statement of its own. */
    public static final String CHANNEL = ChangeQueries.NOTIFY_CHANNEL;

    /**
     * The notice that an artifact's head changed (create, edit, move, delete, restore). The artifact write
     * path sends it in the statement that moves the head, which saves a round trip; the commit rule above holds.
     */
    public static String headChangedNotice(long communityId, UUID d, UUID fromChannel, UUID channel) {
        return Change.head(communityId, d, fromChannel, channel).toPayload();
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

    /** A channel was created or renamed, or a member's role changed: its metadata changed, nobody's read access did. */
    public static void channelChanged(Handle handle, long communityId, UUID channel) {
        send(handle, Change.channel(communityId, channel));
    }

    private static void send(Handle handle, Change change) {
        handle.createQuery(ChangeQueries.NOTIFY)
                .bind("channel", ChangeQueries.NOTIFY_CHANNEL)
                .bind("payload", change.toPayload())
                .mapToMap()
                .list();
    }
}
