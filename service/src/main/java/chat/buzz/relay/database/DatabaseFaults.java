package chat.buzz.relay.database;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.apache.tomcat.jdbc.pool.PoolExhaustedException;

/**
 * The one place that decides whether a failure means "the database cannot be reached right now"
 * (answered 503 with a Retry-After) rather than a bug (answered 500).
 */
public final class DatabaseFaults {
    /** admin_shutdown (also a backend ended by pg_terminate_backend), crash_shutdown, cannot_connect_now. */
    private static final Set<String> SHUTDOWN_STATES = Set.of("57P01", "57P02", "57P03");
    /** SQLState class 08: connection exception (refused, broken, failed to establish). */
    private static final String CONNECTION_CLASS = "08";

    private DatabaseFaults() {}

    public static boolean isUnreachable(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof PoolExhaustedException
                    || cause instanceof SQLTransientConnectionException
                    || cause instanceof ConnectException) {
                return true;
            }
            if (cause instanceof SQLException sql
                    && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith(CONNECTION_CLASS)
                            || SHUTDOWN_STATES.contains(sql.getSQLState()))) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }
}
