package chat.buzz.relay.auth;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/** The replay guard in PostgreSQL: every relay instance on the same database shares it. */
public final class PostgresReplayGuard implements ReplayGuard {
    private final Jdbi jdbi;

    public PostgresReplayGuard(Jdbi jdbi) {
        this.jdbi = jdbi;
    }

    /** One statement in its own transaction (autocommit), committed before this returns. */
    @Override
    public boolean firstUse(String authEventId, long createdAtSeconds, Duration window) {
        double keepSeconds = keepSeconds(window);
        try {
            return jdbi.withHandle(handle -> record(handle.getConnection(), authEventId, createdAtSeconds, keepSeconds))
                    == 1;
        } catch (SQLException e) {
            // The cause stays on the chain, where DatabaseFaults tells an unreachable database from a bug.
            throw new IllegalStateException("the replay guard's insert failed", e);
        }
    }

    static double keepSeconds(Duration window) {
        return window.plus(MARGIN).toMillis() / 1000.0;
    }

    private static int record(Connection connection, String authEventId, long createdAtSeconds, double keepSeconds)
            throws SQLException {
        try (PreparedStatement record = connection.prepareStatement(ReplayGuardSql.RECORD)) {
            record.setString(1, authEventId);
            record.setLong(2, createdAtSeconds);
            record.setDouble(3, keepSeconds);
            return record.executeUpdate();
        }
    }

    @Override
    public int purgeExpired() {
        return jdbi.withHandle(
                handle -> handle.createUpdate(ReplayGuardSql.PURGE_EXPIRED).execute());
    }
}
