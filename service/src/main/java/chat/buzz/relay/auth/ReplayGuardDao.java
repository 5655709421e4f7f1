package chat.buzz.relay.auth;

import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

public interface ReplayGuardDao {
    /**
     * An expired entry may be reused; a live one is left untouched and counts 0 rows. The decision is
     * synchronous and shared (the primary key, in the database every instance uses); only its
     * durability is not: this statement's transaction commits without waiting for the WAL flush
     * (docs/decisions.md, "HTTP").
     */
    @SqlUpdate("""
            INSERT INTO nip98_replay_guard (event_id, expires_at)
            SELECT :id, to_timestamp(:createdAt) + make_interval(secs => :seconds)
            FROM (SELECT set_config('synchronous_commit', 'off', true)) AS without_flush_wait
            ON CONFLICT (event_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
            WHERE nip98_replay_guard.expires_at < clock_timestamp()
            """)
    int record(
            @Bind("id") String eventId, @Bind("createdAt") long createdAtSeconds, @Bind("seconds") double keepSeconds);

    @SqlUpdate("DELETE FROM nip98_replay_guard WHERE expires_at < clock_timestamp()")
    int purgeExpired();
}
