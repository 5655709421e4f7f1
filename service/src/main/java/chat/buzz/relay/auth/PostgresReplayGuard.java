package chat.buzz.relay.auth;

import chat.buzz.relay.database.PlainStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import org.jdbi.v3.core.Handle;
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

    /**
     * The same decision inside the transaction the handle has open (a signed write's own): the row commits
     * or rolls back with the write, and with the write's durability. A concurrent use of the same token
     * waits on the uncommitted row, then counts 0 rows if the write that holds it commits.
     */
    boolean firstUseIn(Handle handle, String authEventId, long createdAtSeconds, Duration window) {
        // A deadlock or serialization failure here reaches the write's retry as any statement of the write's.
        return PlainStatements.on(handle).update(ReplayGuardSql.RECORD_IN_TRANSACTION, statement -> {
                    statement.setString(1, authEventId);
                    statement.setLong(2, createdAtSeconds);
                    statement.setDouble(3, keepSeconds(window));
                })
                == 1;
    }

    private static double keepSeconds(Duration window) {
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
