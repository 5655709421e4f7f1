package chat.buzz.relay.access;

/**
 * The read rules of {@link ChannelAccess} and of PROTOCOL 4.2 as SQL fragments, so every read path
 * (current, incremental, WebSocket sync) decides access inside its query instead of loading a
 * reader's channel list. Fragments take table aliases; the reader is bound as {@code :reader} and a
 * scope, when given, as {@code :scope} (a text array of channel ids).
 */
public final class AccessSql {
    private AccessSql() {}

    public static final String ACTIVE_MEMBER = activeMember("c");

    public static final String READABLE_CHANNEL = readable("c");

    public static String activeMember(String channel) {
        return "EXISTS (SELECT 1 FROM channel_members am WHERE am.channel_id = " + channel
                + ".id AND am.pubkey = :reader AND am.removed_at IS NULL)";
    }

    /** Open channels: anyone in the community; private: active members. Deleted channels: nobody. */
    public static String readable(String channel) {
        return "(" + channel + ".deleted_at IS NULL AND (" + channel + ".visibility = 'open' OR "
                + activeMember(channel) + "))";
    }

    /**
     * Channels whose artifacts a reader discovers, TTL aside: with a scope, the readable channels it
     * names (unlisted ones included); without, private channels of active members, listed open channels,
     * and unlisted open channels of active members. A private channel is readable only by its active
     * members, so "member, or open and listed" says all of it.
     */
    public static String discoverableChannel(String channel, boolean scoped) {
        if (scoped) {
            return "(" + channel + ".id = ANY (CAST(:scope AS uuid[])) AND " + readable(channel) + ")";
        }
        return "(" + channel + ".deleted_at IS NULL AND ((" + channel + ".visibility = 'open' AND NOT "
                + channel + ".unlisted) OR " + activeMember(channel) + "))";
    }

    /**
     * Channels whose heads mode "current" returns (PROTOCOL 4): when the filter names channels or
     * artifacts, every readable channel (knowing the id is enough for an unlisted one); otherwise the
     * discovery rule of 4.2, so a broad read never names an unlisted channel to a non-member. TTL
     * channels are included either way: they are left out of durable sync only.
     */
    public static String currentChannel(String channel, boolean namedByFilter) {
        return namedByFilter ? readable(channel) : discoverableChannel(channel, false);
    }

    /** A head that is current state: not deleted and not redacted ({@code head} joined to its event). */
    public static String liveHead(String head, String event) {
        return "(NOT " + head + ".deleted AND " + event + ".redacted_at IS NULL)";
    }

    /** Membership in the discoverable set D(reader, scope) of PROTOCOL 4.2. */
    public static String discoverableHead(String head, String event, String channel, boolean scoped) {
        return "(" + liveHead(head, event) + " AND " + channel + ".ttl_seconds IS NULL AND "
                + discoverableChannel(channel, scoped) + ")";
    }

    /** Whether a known-ID read may return the head: live, durable and readable, listed or not. */
    public static String readableHead(String head, String event, String channel) {
        return "(" + head + ".d IS NOT NULL AND " + liveHead(head, event) + " AND " + channel
                + ".ttl_seconds IS NULL AND " + readable(channel) + ")";
    }

    /**
     * The reason of a remove that tells the reader nothing it could not read (PROTOCOL 4.1):
     * {@code moved} only to readers of the channel left ({@code movedFrom}, an alias or null),
     * {@code deleted} only to readers of the deleted head's channel, otherwise {@code unavailable}.
     */
    public static String removeReason(String head, String channel, String movedFrom) {
        String moved = movedFrom == null ? "" : " WHEN " + movedFrom + ".id IS NOT NULL AND " + readable(movedFrom)
                + " THEN 'moved'";
        return "(CASE" + moved + " WHEN " + head + ".deleted AND " + readable(channel)
                + " THEN 'deleted' ELSE 'unavailable' END)";
    }

    /**
     * Whether a reader who can no longer read {@code channel} may still be told that an artifact now in
     * it is gone: only if one of its revisions was accepted there before the reader's removal
     * ({@code membership}, the reader's channel_members row). Artifacts that arrived later stay unnamed.
     */
    public static String inChannelBeforeRemoval(String head, String membership) {
        return "EXISTS (SELECT 1 FROM artifact_revisions past WHERE past.community_id = " + head + ".community_id"
                + " AND past.d = " + head + ".d AND past.kind = 45010 AND past.channel_id = " + membership
                + ".channel_id AND past.accepted_at <= " + membership + ".removed_at)";
    }

    /** Whether a removed member was still in the channel when {@code moment} happened. */
    public static String memberAt(String channel, String moment) {
        return "EXISTS (SELECT 1 FROM channel_members gone WHERE gone.channel_id = " + channel
                + ".id AND gone.pubkey = :reader AND gone.removed_at >= " + moment + ")";
    }
}
