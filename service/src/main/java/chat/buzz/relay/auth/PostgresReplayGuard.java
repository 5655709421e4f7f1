package chat.buzz.relay.auth;

import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/** The replay guard in PostgreSQL: every relay instance on the same database shares it. */
public final class PostgresReplayGuard implements ReplayGuard {
    /**
     * created_at has whole seconds, and the relay instances and the database each read their own clock:
     * keep entries a little past the window so neither rounding nor a small clock difference opens a gap.
     */
    static final Duration MARGIN = Duration.ofSeconds(10);

    private final Jdbi jdbi;

    public PostgresReplayGuard(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** One statement in its own transaction (autocommit), committed before this returns. */
    @Override
    public boolean firstUse(String authEventId, long createdAtSeconds, Duration window) {
        double keepSeconds = window.plus(MARGIN).toMillis() / 1000.0;
        return jdbi.withHandle(handle -> handle.createUpdate(ReplayGuardSql.RECORD)
                        .bind("id", authEventId)
                        .bind("createdAt", createdAtSeconds)
                        .bind("seconds", keepSeconds)
                        .execute())
                == 1;
    }

    @Override
    public int purgeExpired() {
        return jdbi.withHandle(
                handle -> handle.createUpdate(ReplayGuardSql.PURGE_EXPIRED).execute());
    }
}
