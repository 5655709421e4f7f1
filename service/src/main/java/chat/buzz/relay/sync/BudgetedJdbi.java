package chat.buzz.relay.sync;

import java.sql.SQLException;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;

/**
 * Runs each sync read under a statement timeout, so no subscriber (however often it re-sends REQ)
 * can start a query that runs longer than the budget.
 */
final class BudgetedJdbi {
    private static final String QUERY_CANCELED = "57014";

    private final Jdbi jdbi;
    private final long statementBudgetMillis;

    BudgetedJdbi(Jdbi jdbi, long statementBudgetMillis) {
        this.jdbi = jdbi;
        this.statementBudgetMillis = statementBudgetMillis;
    }

    <T> T withHandle(HandleCallback<T, RuntimeException> read) {
        return jdbi.inTransaction(handle -> {
            // SET LOCAL ends with this transaction, so the pooled connection goes back without it.
            handle.execute("SET LOCAL statement_timeout = " + statementBudgetMillis);
            return read.withHandle(handle);
        });
    }

    /** Whether a failure was PostgreSQL cancelling a statement that ran over its budget. */
    static boolean overBudget(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && QUERY_CANCELED.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
