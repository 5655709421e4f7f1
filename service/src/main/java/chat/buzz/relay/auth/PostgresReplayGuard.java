package chat.buzz.relay.auth;

import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/** The replay guard in PostgreSQL: every relay instance on the same database shares it. */
public final class PostgresReplayGuard implements ReplayGuard {
    private final ReplayGuardDao dao;

    public PostgresReplayGuard(Jdbi jdbi) {
        this.dao = jdbi.onDemand(ReplayGuardDao.class);
    }

    @Override
    public boolean firstUse(String authEventId, Duration window) {
        return dao.record(authEventId, window.toMillis() / 1000.0) == 1;
    }

    @Override
    public int purgeExpired() {
        return dao.purgeExpired();
    }
}
