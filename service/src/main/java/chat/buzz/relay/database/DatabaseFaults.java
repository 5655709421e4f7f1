package chat.buzz.relay.database;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import org.apache.tomcat.jdbc.pool.PoolExhaustedException;
import org.jdbi.v3.core.ConnectionException;

/**
 * The one place that decides whether a failure means "the database cannot serve the relay right now"
 * (answered 503 with a Retry-After, the kind logged once per outage) rather than a bug (answered 500).
 * Decided by what the operator must do about it ({@link DatabaseFault}), from the SQLState anywhere in
 * the cause chain, however Jdbi or the relay wrapped it.
 */
public final class DatabaseFaults {
    /** Causes followed before giving up: a chain that loops back on itself ends the walk. */
    private static final int MAX_DEPTH = 32;

    private DatabaseFaults() {}

    /** True for every {@link DatabaseFault}: the request is turned away, not failed. */
    public static boolean isFault(Throwable error) {
        return classify(error).isPresent();
    }

    public static Optional<DatabaseFault> classify(Throwable error) {
        boolean noConnection = false;
        int depth = 0;
        for (Throwable cause = error; cause != null && depth++ < MAX_DEPTH; cause = next(cause)) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                Optional<DatabaseFault> byState = ofState(sql.getSQLState());
                if (byState.isPresent()) {
                    return byState;
                }
            }
            if (cause instanceof ConnectionException
                    || cause instanceof PoolExhaustedException
                    || cause instanceof SQLTransientConnectionException
                    || cause instanceof ConnectException) {
                // Keep looking: the server's own SQLState further down names the cause better.
                noConnection = true;
            }
        }
        return noConnection ? Optional.of(DatabaseFault.CONNECTION) : Optional.empty();
    }

    /** The SQLState of the deepest SQLException on the chain that has one, for the log. */
    public static Optional<String> sqlState(Throwable error) {
        String state = null;
        int depth = 0;
        for (Throwable cause = error; cause != null && depth++ < MAX_DEPTH; cause = next(cause)) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                state = sql.getSQLState();
            }
        }
        return Optional.ofNullable(state);
    }

    static Optional<DatabaseFault> ofState(String state) {
        if (state.startsWith("08")) {
            return Optional.of(DatabaseFault.CONNECTION);
        }
        return Optional.ofNullable(
                switch (state) {
                    case "53300" -> DatabaseFault.CONNECTION_LIMIT;
                    case "53000", "53100", "53200", "53400" -> DatabaseFault.RESOURCES;
                    case "57P01", "57P02" -> DatabaseFault.SHUTDOWN;
                    case "57P03" -> DatabaseFault.STARTING;
                    // idle_session_timeout, database dropped: the session is gone as in a shutdown.
                    case "57P04", "57P05", "25P03" -> DatabaseFault.CONNECTION;
                    case "25006" -> DatabaseFault.READ_ONLY;
                    case "40001", "40P01" -> DatabaseFault.CONFLICT;
                    case SqlStates.QUERY_CANCELED, "55P03" -> DatabaseFault.TIMEOUT;
                    default -> state.startsWith("53") ? DatabaseFault.RESOURCES : null;
                });
    }

    private static Throwable next(Throwable cause) {
        Throwable next = cause.getCause();
        if (next == null && cause instanceof SQLException sql) {
            next = sql.getNextException();
        }
        return next == cause ? null : next;
    }
}
