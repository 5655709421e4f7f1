package chat.buzz.relay.changes;

/** The statements that announce a committed change; the sync listener LISTENs on {@link #NOTIFY_CHANNEL}. */
public final class ChangeQueries {
    public static final String NOTIFY_CHANNEL = "buzz_sync";

    static final String NOTIFY = "SELECT pg_notify(:channel, :payload)";

    static final String HEAD_OF_EVENT =
            "SELECT d, channel_id FROM artifact_heads WHERE community_id = :community AND head_event_id = :event";

    private ChangeQueries() {}
}
