package chat.buzz.relay.auth;

import org.jdbi.v3.sqlobject.customizer.Bind;
import org.jdbi.v3.sqlobject.statement.SqlUpdate;

public interface ReplayGuardDao {
    /** An expired entry may be reused; a live one is left untouched and counts 0 rows. */
    @SqlUpdate("""
            INSERT INTO nip98_replay_guard (event_id, expires_at)
            VALUES (:id, to_timestamp(:createdAt) + make_interval(secs => :seconds))
            ON CONFLICT (event_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
            WHERE nip98_replay_guard.expires_at < clock_timestamp()
            """)
    int record(@Bind("id") String eventId, @Bind("createdAt") long createdAtSeconds,
               @Bind("seconds") double keepSeconds);

    @SqlUpdate("DELETE FROM nip98_replay_guard WHERE expires_at < clock_timestamp()")
    int purgeExpired();
}
