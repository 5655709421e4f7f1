package chat.buzz.relay.auth;

/**
 * The replay guard's statements. Every signed request runs {@link #RECORD}, so it goes to the driver as
 * a plain JDBC prepared statement with positional parameters, not through a SqlObject or Jdbi's statement
 * layer: their attach, argument binding and statement logging cost several times the CPU of the insert
 * (JFR of a trivial signed read, docs/benchmarks.md). The driver prepares it on the server once it has
 * run a few times on a connection. The leading comment names the statement in {@code pg_stat_activity},
 * as Dropwizard's naming does for SqlObject methods.
 */
final class ReplayGuardSql {
    private ReplayGuardSql() {}

    /**
     * An expired entry may be reused; a live one is left untouched and counts 0 rows. The decision is
     * synchronous and shared (the primary key, in the database every instance uses); only its
     * durability is not: this statement's transaction commits without waiting for the WAL flush
     * (docs/decisions.md, "HTTP"). Parameters: the auth event id, its created_at in seconds, and how
     * many seconds after created_at the entry is kept.
     */
    // A signed write inserts the same row in its own statement: events.EventStore's INSERT_WITH_TOKEN.
    static final String RECORD = """
            /* ReplayGuard.record */ INSERT INTO nip98_replay_guard (event_id, expires_at)
            SELECT ?, to_timestamp(?) + make_interval(secs => ?)
            FROM (SELECT set_config('synchronous_commit', 'off', true)) AS without_flush_wait
            ON CONFLICT (event_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
            WHERE nip98_replay_guard.expires_at < clock_timestamp()
            """;

    static final String PURGE_EXPIRED = """
            /* ReplayGuard.purgeExpired */ DELETE FROM nip98_replay_guard WHERE expires_at < clock_timestamp()
            """;
}
