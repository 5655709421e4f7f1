package chat.buzz.relay.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import liquibase.database.Database;
import liquibase.database.core.PostgresDatabase;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.LockException;
import liquibase.lockservice.StandardLockService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Liquibase's lock with a PostgreSQL session lock under it, so a lock left by a killed migrator does
 * not block the next one. Every migration this build runs (start-up, {@code db} commands, the
 * console's rollback and record) takes a session-level advisory lock before Liquibase's row in
 * {@code databasechangeloglock}, and PostgreSQL drops that lock with the session. Whoever gets the
 * advisory lock therefore knows no live migrator holds the row: a row still marked locked belongs to
 * a dead process and is released, with a warning naming it. While a live migrator holds the lock the
 * log says which session is waited for.
 */
public final class MigrationLock extends StandardLockService {
    private static final Logger LOG = LoggerFactory.getLogger(MigrationLock.class);
    /** "buzzmigr" in ASCII: the advisory lock key, scoped to the relay's database. */
    static final long ADVISORY_KEY = 0x62757a7a6d696772L;

    private boolean holdsSessionLock;
    private String lastHolderLogged = "";

    @Override
    public int getPriority() {
        return super.getPriority() + 1;
    }

    @Override
    public boolean supports(Database database) {
        return database instanceof PostgresDatabase;
    }

    @Override
    public boolean acquireLock() throws LockException {
        if (hasChangeLogLock()) {
            return true;
        }
        try {
            Connection connection = connection();
            if (!holdsSessionLock) {
                if (!trySessionLock(connection)) {
                    logHolder(connection);
                    return false;
                }
                holdsSessionLock = true;
                releaseRowOfDeadMigrator(connection);
            }
        } catch (SQLException e) {
            throw new LockException("cannot take the migration session lock: " + e.getMessage(), e);
        }
        return super.acquireLock();
    }

    @Override
    public void releaseLock() throws LockException {
        try {
            super.releaseLock();
        } finally {
            if (holdsSessionLock) {
                try {
                    Connection connection = connection();
                    try (PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                        unlock.setLong(1, ADVISORY_KEY);
                        unlock.execute();
                    }
                    commit(connection);
                    holdsSessionLock = false;
                } catch (SQLException e) {
                    // The session lock goes with the connection, which Liquibase closes next.
                    LOG.warn("Could not release the migration session lock; it ends with the connection", e);
                }
            }
        }
    }

    @Override
    public void reset() {
        super.reset();
        holdsSessionLock = false;
    }

    private Connection connection() throws SQLException {
        if (!(database.getConnection() instanceof JdbcConnection jdbc)) {
            throw new SQLException("Liquibase is not connected over JDBC");
        }
        return jdbc.getUnderlyingConnection();
    }

    private static boolean trySessionLock(Connection connection) throws SQLException {
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            lock.setLong(1, ADVISORY_KEY);
            try (ResultSet result = lock.executeQuery()) {
                result.next();
                boolean locked = result.getBoolean(1);
                commit(connection);
                return locked;
            }
        }
    }

    private void releaseRowOfDeadMigrator(Connection connection) throws SQLException {
        String table = database.getDatabaseChangeLogLockTableName().toLowerCase(java.util.Locale.ROOT);
        try (PreparedStatement exists = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            exists.setString(1, table);
            try (ResultSet result = exists.executeQuery()) {
                result.next();
                if (!result.getBoolean(1)) {
                    commit(connection);
                    return;
                }
            }
        }
        try (Statement release = connection.createStatement();
                ResultSet stale = release.executeQuery("WITH old AS (SELECT id, lockedby, lockgranted FROM " + table
                        + " WHERE locked FOR UPDATE) UPDATE " + table + " SET locked = FALSE, lockgranted = NULL, "
                        + "lockedby = NULL FROM old WHERE " + table
                        + ".id = old.id RETURNING old.lockedby, old.lockgranted")) {
            while (stale.next()) {
                LOG.warn(
                        "Released the migration lock left by {} since {}: no live session holds it "
                                + "(its migrator was killed)",
                        stale.getString(1),
                        stale.getString(2));
            }
        }
        commit(connection);
    }

    private void logHolder(Connection connection) throws SQLException {
        String holder;
        try (PreparedStatement who = connection.prepareStatement(
                "SELECT a.pid, a.application_name, coalesce(host(a.client_addr), 'local'), a.backend_start "
                        + "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                        + "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
                        + "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                        + "AND ((l.classid::bigint << 32) | l.objid::bigint) = ?")) {
            who.setLong(1, ADVISORY_KEY);
            try (ResultSet result = who.executeQuery()) {
                holder = result.next()
                        ? "PostgreSQL session pid " + result.getInt(1) + " (application \"" + result.getString(2)
                                + "\", client " + result.getString(3) + ", connected since " + result.getString(4) + ")"
                        : "a session that just released it";
            }
        }
        commit(connection);
        if (!holder.equals(lastHolderLogged)) {
            LOG.info("Waiting for the migration lock, held by a live migrator: {}", holder);
            lastHolderLogged = holder;
        }
    }

    private static void commit(Connection connection) throws SQLException {
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }
}
