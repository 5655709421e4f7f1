package chat.buzz.relay.database;

import chat.buzz.relay.database.ReadNodes.StandbyRead;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;

/**
 * How every read of the relay's data runs (modes "current" and "incremental", digest reads, channel
 * metadata, WebSocket sync): one transaction, read-only, at the isolation the read needs, whose
 * statements PostgreSQL cancels once they run longer than the budget. A cancelled statement comes out
 * as {@link OverBudget}, so each route answers it in its own shape without looking at SQLStates.
 *
 * <p>Where the read runs is the {@link ReadNodes}' choice for its {@link ReadPlacement}: a hot standby
 * when one qualifies (waiting up to 20 ms for it to replay what the read must reflect), else the primary. A standby that cannot serve after all (it has not replayed far
 * enough, recovery cancelled the read, the connection broke, or the read found it older than the
 * client's cursor: {@link StandbyBehind}) costs the client nothing but latency: the read runs once more
 * on the primary.
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

    /** Run before the transaction on a standby, in autocommit, so the read's snapshot is taken after it. */
    private static final String REPLAYED = """
            /* ReadTransaction.replayed */ SELECT CAST(pg_last_wal_replay_lsn() - CAST('0/0' AS pg_lsn) AS bigint)""";

    /**
     * How long a read waits for a standby to replay what it must reflect before the primary answers it:
     * streaming is asynchronous, so right after a write a standby is usually a few milliseconds behind.
     */
    private static final long REPLAY_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private static final long REPLAY_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final ReadNodes nodes;
    private final String setup;

    /** Reads on the primary only: what needs the primary's LISTEN order (WebSocket snapshots). */
    public ReadTransaction(Jdbi primary, Isolation isolation, long statementBudgetMillis) {
        this(ReadNodes.primaryOnly(primary), isolation, statementBudgetMillis);
    }

    public ReadTransaction(ReadNodes nodes, Isolation isolation, long statementBudgetMillis) {
        if (statementBudgetMillis <= 0) {
            // statement_timeout = 0 would mean no budget at all
            throw new IllegalArgumentException("a statement budget must be positive, not " + statementBudgetMillis);
        }
        this.nodes = nodes;
        // One round trip before the first query, instead of a statement each for the isolation, read-only
        // and the budget. SET LOCAL ends with the transaction, so the pooled connection goes back without it.
        this.setup = "SET TRANSACTION ISOLATION LEVEL " + isolation.sql + ", READ ONLY;"
                + " SET LOCAL statement_timeout = " + statementBudgetMillis;
    }

    /** Runs {@code read} on the primary, or on a standby that reflects at least what {@code ANY} asks. */
    public <T> T run(HandleCallback<T, RuntimeException> read) {
        return run(ReadPlacement.ANY, read);
    }

    /**
     * Runs {@code read} in its own transaction, committed when it returns, on a node that satisfies
     * {@code placement}.
     *
     * @throws OverBudget when PostgreSQL cancelled one of its statements (the budget ran out, or an
     *     operator cancelled it); any other failure passes through as it was
     */
    public <T> T run(ReadPlacement placement, HandleCallback<T, RuntimeException> read) {
        Optional<StandbyRead> standby = nodes.standbyFor(placement);
        boolean standbyFailed = false;
        if (standby.isPresent()) {
            try {
                T answer = onStandby(standby.get(), read);
                nodes.served(true, false);
                return answer;
            } catch (NotReplayedYet | StandbyBehind e) {
                standbyFailed = true;
            } catch (OverBudget e) {
                throw e;
            } catch (RuntimeException e) {
                if (!DatabaseFaults.isFault(e)) {
                    throw e;
                }
                // Cancelled by recovery (40001), a broken connection, a standby going down: the primary answers.
                nodes.standbyFailed(standby.get(), e);
                standbyFailed = true;
            }
        }
        T answer = inTransaction(nodes.primary(), read);
        nodes.served(false, standbyFailed);
        return answer;
    }

    private <T> T onStandby(StandbyRead standby, HandleCallback<T, RuntimeException> read) {
        return standby.jdbi().withHandle(handle -> {
            if (!standby.confirmed()) {
                awaitReplayed(handle, standby.atLeast());
            }
            return inTransaction(handle, read);
        });
    }

    private <T> T inTransaction(Jdbi jdbi, HandleCallback<T, RuntimeException> read) {
        return jdbi.withHandle(handle -> inTransaction(handle, read));
    }

    private <T> T inTransaction(Handle handle, HandleCallback<T, RuntimeException> read) {
        try {
            return handle.inTransaction(transaction -> {
                begin(transaction);
                return read.withHandle(transaction);
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

    private static void awaitReplayed(Handle handle, long atLeast) {
        long deadline = System.nanoTime() + REPLAY_WAIT_NANOS;
        while (replayed(handle) < atLeast) {
            if (System.nanoTime() - deadline > 0) {
                throw new NotReplayedYet();
            }
            LockSupport.parkNanos(REPLAY_POLL_NANOS);
        }
    }

    /** How far the standby has replayed; 0 on a server that is not replaying. */
    private static long replayed(Handle handle) {
        return PlainStatements.on(handle)
                .first(REPLAYED, none -> {}, row -> row.getLong(1))
                .orElse(0L);
    }

    /** A statement of a read was cancelled: it ran over the statement budget. */
    public static final class OverBudget extends RuntimeException {
        OverBudget(Throwable cancelled) {
            super("a statement ran over the read's time budget", cancelled);
        }
    }

    /**
     * Thrown by a read that finds the standby it runs on older than what its client already holds (a
     * policy stamp behind the cursor's): the primary answers instead.
     */
    public static final class StandbyBehind extends RuntimeException {
        public StandbyBehind(String why) {
            super(why, null, false, false);
        }
    }

    /** The standby has not replayed what the read must reflect yet. */
    private static final class NotReplayedYet extends RuntimeException {
        NotReplayedYet() {
            super("the standby has not replayed far enough", null, false, false);
        }
    }
}
