package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.apache.tomcat.jdbc.pool.PoolExhaustedException;
import org.jdbi.v3.core.ConnectionException;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.Test;

/** The one classification of "the database cannot be reached": 503 for these, a 500 (a bug) for the rest. */
class DatabaseFaultsTest {
    @Test
    void connectionFailuresAnywhereInTheCauseChainAreUnreachable() {
        assertThat(DatabaseFaults.isUnreachable(new ConnectionException(new SQLException(
                        "Connection to 127.0.0.1:5432 refused", "08001", new ConnectException("refused")))))
                .isTrue();
        assertThat(DatabaseFaults.isUnreachable(new UnableToExecuteStatementException(
                        new SQLException("An I/O error occurred while sending to the backend", "08006"), null)))
                .isTrue();
        assertThat(DatabaseFaults.isUnreachable(new RuntimeException(new ConnectException("refused"))))
                .isTrue();
    }

    @Test
    void endedBackendsAndAServerStartingUpAreUnreachable() {
        for (String state : new String[] {"57P01", "57P02", "57P03"}) {
            assertThat(DatabaseFaults.isUnreachable(new SQLException("terminating connection", state)))
                    .as(state)
                    .isTrue();
        }
    }

    @Test
    void aPoolThatTimesOutIsUnreachable() {
        assertThat(DatabaseFaults.isUnreachable(new ConnectionException(
                        new PoolExhaustedException("Timeout: Pool empty. Unable to fetch a connection in 30 seconds"))))
                .isTrue();
        assertThat(DatabaseFaults.isUnreachable(new SQLTransientConnectionException("pool timeout")))
                .isTrue();
    }

    @Test
    void otherDatabaseErrorsAreNot() {
        assertThat(DatabaseFaults.isUnreachable(new SQLException("duplicate key", "23505")))
                .isFalse();
        assertThat(DatabaseFaults.isUnreachable(
                        new SQLException("canceling statement due to statement timeout", "57014")))
                .isFalse();
        assertThat(DatabaseFaults.isUnreachable(new SQLException("no state"))).isFalse();
        assertThat(DatabaseFaults.isUnreachable(new IllegalStateException("a bug")))
                .isFalse();
    }
}
