package chat.buzz.relay.database;

import java.sql.SQLException;
import java.sql.Statement;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;

/**
 * How every read of the relay's data runs (modes "current" and "incremental", digest reads, WebSocket
 * sync): one transaction, read-only, at the isolation the read needs, whose statements PostgreSQL
 * cancels once they run longer than the budget. A cancelled statement comes out as {@link OverBudget},
 * so each route answers it in its own shape without looking at SQLStates.
 */
public final class ReadTransaction {
    /** What one transaction sees. */
    public enum Isolation {
        /** Each statement sees what committed before it began: enough for reads of one statement each. */
        READ_COMMITTED("READ COMMITTED"),
        /** One snapshot for the whole transaction, so several statements answer for the same moment. */
        REPEATABLE_READ("REPEATABLE READ");

        private final String sql;

        Isolation(String sql) {
            this.sql = sql;
        }
    }

    private final Jdbi jdbi;
    private final String setup;

    public ReadTransaction(Jdbi jdbi, Isolation isolation, long statementBudgetMillis) {
        if (statementBudgetMillis <= 0) {
            // statement_timeout = 0 would mean no budget at all
            throw new IllegalArgumentException("a statement budget must be positive, not " + statementBudgetMillis);
        }
        this.jdbi = jdbi;
        // One round trip before the first query, instead of a statement each for the isolation, read-only
        // and the budget. SET LOCAL ends with the transaction, so the pooled connection goes back without it.
        this.setup = "SET TRANSACTION ISOLATION LEVEL " + isolation.sql + ", READ ONLY;"
                + " SET LOCAL statement_timeout = " + statementBudgetMillis;
    }

    /**
     * Runs {@code read} in its own transaction, committed when it returns.
     *
     * @throws OverBudget when PostgreSQL cancelled one of its statements (the budget ran out, or an
     *     operator cancelled it); any other failure passes through as it was
     */
    public <T> T run(HandleCallback<T, RuntimeException> read) {
        try {
            return jdbi.inTransaction(handle -> {
                begin(handle);
                return read.withHandle(handle);
            });
        } catch (RuntimeException e) {
            if (SqlStates.isQueryCanceled(e)) {
                throw new OverBudget(e);
            }
            throw e;
        }
    }

    /**
     * The setup goes to the driver as plain JDBC: on a trivial signed read, Jdbi's statement layer cost
     * more CPU than the statement itself (docs/benchmarks.md, the trivial read's profile).
     */
    private void begin(Handle handle) {
        try (Statement statement = handle.getConnection().createStatement()) {
            statement.execute(setup);
        } catch (SQLException e) {
            // The cause stays on the chain, where DatabaseFaults tells an unreachable database from a bug.
            throw new IllegalStateException("opening a read transaction failed", e);
        }
    }

    /** A statement of a read was cancelled: it ran over the statement budget. */
    public static final class OverBudget extends RuntimeException {
        OverBudget(Throwable cancelled) {
            super("a statement ran over the read's time budget", cancelled);
        }
    }
}
