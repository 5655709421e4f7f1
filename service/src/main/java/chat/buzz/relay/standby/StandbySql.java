package chat.buzz.relay.standby;

/** The statements that watch standbys. WAL positions are read as numbers (bytes since 0/0). */
final class StandbySql {
    private StandbySql() {}

    /**
     * On the primary: how far its WAL is flushed, which is as far as it streams to standbys. Every write
     * the relay acknowledged lies before it: a write commits synchronously (PostgreSQL's default), so its
     * commit is flushed before anyone can see it. Only the replay guard commits without waiting for the
     * flush, and no read depends on it; the insert position would make every read that follows a signed
     * request wait for the WAL writer.
     */
    static final String PRIMARY_POSITION = """
            /* Standby.primaryPosition */ SELECT CAST(pg_current_wal_flush_lsn() - CAST('0/0' AS pg_lsn) AS bigint)""";

    /**
     * On a standby: whether it is still one, how far it has replayed, and how long ago the last transaction
     * it replayed committed (on the primary's clock; null when it has replayed none since it started).
     */
    static final String SAMPLE = """
            /* Standby.sample */ SELECT pg_is_in_recovery() AS recovering,
                   CAST(pg_last_wal_replay_lsn() - CAST('0/0' AS pg_lsn) AS bigint) AS replayed,
                   CAST(extract(epoch FROM now() - pg_last_xact_replay_timestamp()) * 1000 AS bigint) AS behind_millis,
                   CASE WHEN pg_is_in_recovery() THEN pg_is_wal_replay_paused() ELSE false END AS paused""";

    /** Whether the server is a standby (still replaying), not a primary. */
    static final String IN_RECOVERY = """
            /* Standby.inRecovery */ SELECT pg_is_in_recovery()""";

    /** The cluster's identity: a standby of this primary has the same. */
    static final String SYSTEM_IDENTIFIER = """
            /* Standby.systemIdentifier */ SELECT system_identifier FROM pg_control_system()""";
}
