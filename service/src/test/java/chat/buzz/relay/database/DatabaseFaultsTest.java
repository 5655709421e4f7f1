package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.apache.tomcat.jdbc.pool.PoolExhaustedException;
import org.jdbi.v3.core.ConnectionException;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.Test;

/**
 * The one classification of "the database cannot serve the relay now": a kind for these (503 with
 * Retry-After), nothing (a bug, 500) for the rest. 40001 from a paused standby is classified here only;
 * the fault tests against a real server (DatabaseFaultRoutesTest) have no standby to pause.
 */
class DatabaseFaultsTest {
    @Test
    void connectionFailuresAnywhereInTheCauseChainAreConnectionFaults() {
        assertThat(DatabaseFaults.classify(new ConnectionException(new SQLException(
                        "Connection to 127.0.0.1:5432 refused", "08001", new ConnectException("refused")))))
                .contains(DatabaseFault.CONNECTION);
        assertThat(DatabaseFaults.classify(new UnableToExecuteStatementException(
                        new SQLException("An I/O error occurred while sending to the backend", "08006"), null)))
                .contains(DatabaseFault.CONNECTION);
        assertThat(DatabaseFaults.classify(new RuntimeException(new ConnectException("refused"))))
                .contains(DatabaseFault.CONNECTION);
    }

    @Test
    void aPoolThatCannotHandOutAConnectionIsAConnectionFault() {
        assertThat(DatabaseFaults.classify(new ConnectionException(
                        new PoolExhaustedException("Timeout: Pool empty. Unable to fetch a connection in 30 seconds"))))
                .contains(DatabaseFault.CONNECTION);
        assertThat(DatabaseFaults.classify(new SQLTransientConnectionException("pool timeout")))
                .contains(DatabaseFault.CONNECTION);
        assertThat(DatabaseFaults.classify(
                        new ConnectionException(new SQLException("password authentication failed", "28P01"))))
                .as("whatever the server refused the connection for")
                .contains(DatabaseFault.CONNECTION);
    }

    @Test
    void theServersOwnStateNamesTheKindEvenWhenJdbiWrappedItInAConnectionFailure() {
        assertThat(DatabaseFaults.classify(new ConnectionException(
                        new SQLException("FATAL: too many connections for database \"buzz\"", "53300"))))
                .contains(DatabaseFault.CONNECTION_LIMIT);
        assertThat(DatabaseFaults.classify(new ConnectionException(
                        new SQLException("FATAL: the database system is starting up", "57P03"))))
                .contains(DatabaseFault.STARTING);
    }

    @Test
    void eachStateMeansWhatTheOperatorMustDo() {
        assertKind("57P01", DatabaseFault.SHUTDOWN);
        assertKind("57P02", DatabaseFault.SHUTDOWN);
        assertKind("57P03", DatabaseFault.STARTING);
        assertKind("53300", DatabaseFault.CONNECTION_LIMIT);
        assertKind("53100", DatabaseFault.RESOURCES);
        assertKind("53200", DatabaseFault.RESOURCES);
        assertKind("53400", DatabaseFault.RESOURCES);
        assertKind("25006", DatabaseFault.READ_ONLY);
        assertKind("40001", DatabaseFault.CONFLICT);
        assertKind("40P01", DatabaseFault.CONFLICT);
        assertKind("57014", DatabaseFault.TIMEOUT);
        assertKind("55P03", DatabaseFault.TIMEOUT);
        assertKind("08003", DatabaseFault.CONNECTION);
    }

    @Test
    void aStandbyCancellingAReadForRecoveryIsAConflict() {
        SQLException cancelled = new SQLException(
                "ERROR: canceling statement due to conflict with recovery\n  Detail: User query might have needed "
                        + "to see row versions that must be removed.",
                "40001");
        assertThat(DatabaseFaults.classify(new UnableToExecuteStatementException(cancelled, null)))
                .contains(DatabaseFault.CONFLICT);
        assertThat(DatabaseFaults.classify(new IllegalStateException("opening a read transaction failed", cancelled)))
                .contains(DatabaseFault.CONFLICT);
    }

    @Test
    void otherDatabaseErrorsAndBugsAreNot() {
        assertThat(DatabaseFaults.classify(new SQLException("duplicate key", "23505")))
                .isEmpty();
        assertThat(DatabaseFaults.classify(new SQLException("syntax error", "42601")))
                .isEmpty();
        assertThat(DatabaseFaults.classify(new SQLException("no state"))).isEmpty();
        assertThat(DatabaseFaults.classify(new IllegalStateException("a bug"))).isEmpty();
        assertThat(DatabaseFaults.classify(new java.io.IOException("the client went away")))
                .isEmpty();
    }

    @Test
    void aCauseChainThatLoopsEnds() {
        RuntimeException first = new RuntimeException("first");
        RuntimeException second = new RuntimeException("second", first);
        first.initCause(second);
        assertThat(DatabaseFaults.classify(first)).isEmpty();
    }

    private static void assertKind(String state, DatabaseFault kind) {
        assertThat(DatabaseFaults.classify(new SQLException("message", state)))
                .as(state)
                .contains(kind);
    }
}
