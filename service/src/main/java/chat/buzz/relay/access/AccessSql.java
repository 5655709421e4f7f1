package chat.buzz.relay.access;

/**
 * The read rule of {@link ChannelAccess#canRead()} as SQL, so reads decide access inside the query
 * instead of loading a reader's channel list. Expects the channel aliased {@code c} and the reader
 * bound as {@code :reader}.
 */
public final class AccessSql {
    private AccessSql() {}

    public static final String ACTIVE_MEMBER = """
            EXISTS (SELECT 1 FROM channel_members m
                    WHERE m.channel_id = c.id AND m.pubkey = :reader AND m.removed_at IS NULL)""";

    public static final String READABLE_CHANNEL =
            "(c.deleted_at IS NULL AND (c.visibility = 'open' OR " + ACTIVE_MEMBER + "))";
}
