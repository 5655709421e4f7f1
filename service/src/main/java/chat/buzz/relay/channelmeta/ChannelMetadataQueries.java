package chat.buzz.relay.channelmeta;

import chat.buzz.relay.access.AccessSql;
import chat.buzz.relay.database.Sql;

/** The SQL of channel-metadata reads (PROTOCOL 4.6). Who sees which channel comes from {@link AccessSql}. */
final class ChannelMetadataQueries {
    private ChannelMetadataQueries() {}

    /**
     * The channels a reader may list, with their settings, stamps (whole seconds, as in created_at) and
     * active members, newest first by the stamps that the asked kinds carry. A channel is a row only when
     * one of its asked-for events falls in [since, until], so the limit counts channels that yield events.
     * Binds {@code :community}, {@code :reader}, {@code :since}, {@code :until}, {@code :limit},
     * {@code :settings} and {@code :members} (whether 39000, and 39001 or 39002, are asked for) and, with
     * {@code <channelFilter>}, {@code :channels}.
     */
    private static final String CHANNELS = """
            WITH listed AS (
                SELECT c.id, c.name, c.visibility, c.unlisted, c.ttl_seconds, c.about, c.picture,
                       CAST(floor(extract(epoch FROM c.settings_modified_at)) AS bigint) AS settings_at,
                       CAST(floor(extract(epoch FROM c.members_modified_at)) AS bigint) AS members_at
                FROM channels c
                WHERE c.community_id = :community AND <channelRule> <channelFilter>),
            in_window AS (
                SELECT l.*, GREATEST(
                           CASE WHEN :settings AND l.settings_at BETWEEN :since AND :until THEN l.settings_at END,
                           CASE WHEN :members AND l.members_at BETWEEN :since AND :until THEN l.members_at END) AS newest
                FROM listed l)
            SELECT w.id, w.name, w.visibility, w.unlisted, w.ttl_seconds, w.about, w.picture, w.settings_at, w.members_at,
                   COALESCE(m.pubkeys, '{}') AS pubkeys, COALESCE(m.roles, '{}') AS roles
            FROM in_window w
            LEFT JOIN LATERAL (
                SELECT array_agg(am.pubkey ORDER BY am.pubkey) AS pubkeys, array_agg(am.role ORDER BY am.pubkey) AS roles
                FROM channel_members am WHERE am.channel_id = w.id AND am.removed_at IS NULL) m ON true
            WHERE w.newest IS NOT NULL
            ORDER BY w.newest DESC, w.id
            LIMIT :limit""";

    private static final String CHANNEL_FILTER = "AND c.id = ANY (CAST(:channels AS uuid[]))";

    /**
     * {@link #CHANNELS} for a read that names channels by {@code #d} or not, and restricts them to
     * {@code :channels} or not. With {@code #d} every named channel the reader can read (knowing the id
     * is enough for an unlisted one); without, the discovery rule at channel level, TTL channels
     * included: the same rule as the artifact mode "current".
     */
    static String channels(boolean named, boolean restricted) {
        return Sql.fill(
                CHANNELS,
                "channelRule",
                AccessSql.currentChannel("c", named),
                "channelFilter",
                restricted ? CHANNEL_FILTER : "");
    }
}
