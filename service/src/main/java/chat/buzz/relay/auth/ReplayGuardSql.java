package chat.buzz.relay.auth;

/**
 * The replay guard's statements. They run on a plain handle, not through a SqlObject: every signed
 * request passes the guard, and attaching an on-demand SqlObject cost several times the CPU of the
 * statement it ran (JFR of a trivial signed read, docs/benchmarks.md). The leading comment names the
 * statement in {@code pg_stat_activity}, as Dropwizard's naming does for SqlObject methods.
 */
final class ReplayGuardSql {
    private ReplayGuardSql() {}

    /**
     * An expired entry may be reused; a live one is left untouched and counts 0 rows. The decision is
     * synchronous and shared (the primary key, in the database every instance uses); only its
     * durability is not: this statement's transaction commits without waiting for the WAL flush
     * (docs/decisions.md, "HTTP").
     */
    static final String RECORD = """
            /* ReplayGuard.record */ INSERT INTO nip98_replay_guard (event_id, expires_at)
            SELECT :id, to_timestamp(:createdAt) + make_interval(secs => :seconds)
            FROM (SELECT set_config('synchronous_commit', 'off', true)) AS without_flush_wait
            ON CONFLICT (event_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
            WHERE nip98_replay_guard.expires_at < clock_timestamp()
            """;

    static final String PURGE_EXPIRED = """
            /* ReplayGuard.purgeExpired */ DELETE FROM nip98_replay_guard WHERE expires_at < clock_timestamp()
            """;
}
