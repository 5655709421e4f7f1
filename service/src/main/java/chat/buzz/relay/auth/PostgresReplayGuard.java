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

    private final ReplayGuardDao dao;

    public PostgresReplayGuard(Jdbi jdbi) {
        this.dao = jdbi.onDemand(ReplayGuardDao.class);
    }

    @Override
    public boolean firstUse(String authEventId, long createdAtSeconds, Duration window) {
        return dao.record(authEventId, createdAtSeconds, window.plus(MARGIN).toMillis() / 1000.0) == 1;
    }

    @Override
    public int purgeExpired() {
        return dao.purgeExpired();
    }
}
