package chat.buzz.relay.database;

import java.sql.SQLException;

/** PostgreSQL error codes the relay answers as something other than a 500. */
public final class SqlStates {
    /** statement_timeout expired (or the statement was cancelled). */
    public static final String QUERY_CANCELED = "57014";

    private SqlStates() {}

    public static boolean isQueryCanceled(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && QUERY_CANCELED.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
