package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.relay.database.ReadTransaction.Isolation;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import java.sql.SQLException;
import java.util.List;
import org.apache.tomcat.jdbc.pool.DataSource;
import org.apache.tomcat.jdbc.pool.PoolProperties;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every read runs read-only, at its isolation, under its budget, and leaves none of it on the pooled connection. */
@IntegrationTest
class ReadTransactionTest {
    private static String url;
    private static DataSource pool;
    private static Jdbi jdbi;

    @BeforeAll
    static void createDatabase() {
        url = TestDatabases.fresh();
        PoolProperties properties = new PoolProperties();
        properties.setUrl(url);
        properties.setUsername(TestDatabases.USER);
        properties.setPassword("");
        properties.setDriverClassName("org.postgresql.Driver");
        // One connection, so the read after a transaction is on the very connection it used.
        properties.setMaxActive(1);
        properties.setInitialSize(1);
        pool = new DataSource(properties);
        jdbi = Jdbi.create(pool);
        jdbi.useHandle(handle -> handle.execute("CREATE TABLE notes (id int PRIMARY KEY)"));
    }

    @AfterAll
    static void dropDatabase() {
        pool.close(true);
        TestDatabases.drop(url);
    }

    @Test
    void aReadRunsReadOnlyAtItsIsolationUnderItsBudget() {
        assertThat(settings(new ReadTransaction(jdbi, Isolation.REPEATABLE_READ, 250)))
                .containsExactly("repeatable read", "on", "250ms");
        assertThat(settings(new ReadTransaction(jdbi, Isolation.READ_COMMITTED, 1500)))
                .containsExactly("read committed", "on", "1500ms");
    }

    @Test
    void nothingOfTheReadStaysOnThePooledConnection() {
        List<String> before = jdbi.withHandle(ReadTransactionTest::sessionSettings);
        new ReadTransaction(jdbi, Isolation.REPEATABLE_READ, 250).run(ReadTransactionTest::sessionSettings);

        assertThat(before).containsExactly("read committed", "off", "0");
        assertThat(jdbi.withHandle(ReadTransactionTest::sessionSettings)).isEqualTo(before);
    }

    @Test
    void aWriteInsideAReadIsRefusedByPostgresql() {
        ReadTransaction read = new ReadTransaction(jdbi, Isolation.READ_COMMITTED, 1000);

        assertThatThrownBy(() -> read.run(handle -> handle.execute("INSERT INTO notes VALUES (2)")))
                .as("passed on as it was, not as a budget")
                .isNotInstanceOf(ReadTransaction.OverBudget.class)
                .hasRootCauseInstanceOf(SQLException.class)
                .rootCause()
                .satisfies(cause ->
                        assertThat(((SQLException) cause).getSQLState()).isEqualTo("25006"));
        int stored = jdbi.withHandle(handle -> handle.createQuery("SELECT count(*) FROM notes WHERE id = 2")
                .mapTo(Integer.class)
                .one());
        assertThat(stored).isZero();
    }

    @Test
    void aStatementOverTheBudgetIsCancelledAndComesOutAsOverBudget() {
        ReadTransaction read = new ReadTransaction(jdbi, Isolation.REPEATABLE_READ, 100);

        assertThatThrownBy(() -> read.run(handle -> handle.createQuery("SELECT pg_sleep(30)")
                        .mapTo(String.class)
                        .one()))
                .isInstanceOf(ReadTransaction.OverBudget.class)
                .satisfies(
                        e -> assertThat(SqlStates.isQueryCanceled(e.getCause())).isTrue());
        int next = read.run(
                handle -> handle.createQuery("SELECT 1").mapTo(Integer.class).one());
        assertThat(next).as("the next read on the same connection works").isEqualTo(1);
    }

    @Test
    void aFailureOfTheReadItselfPassesThroughUnchanged() {
        IllegalStateException refusal = new IllegalStateException("the caller's own refusal");
        ReadTransaction read = new ReadTransaction(jdbi, Isolation.READ_COMMITTED, 1000);

        assertThatThrownBy(() -> read.run(handle -> {
                    throw refusal;
                }))
                .isSameAs(refusal);
    }

    @Test
    void aBudgetOfZeroWouldMeanNoBudgetAndIsRefused() {
        assertThatThrownBy(() -> new ReadTransaction(jdbi, Isolation.READ_COMMITTED, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> settings(ReadTransaction read) {
        return read.run(ReadTransactionTest::sessionSettings);
    }

    private static List<String> sessionSettings(Handle handle) {
        return handle.createQuery("SELECT current_setting('transaction_isolation'),"
                        + " current_setting('transaction_read_only'), current_setting('statement_timeout')")
                .map((rs, ctx) -> List.of(rs.getString(1), rs.getString(2), rs.getString(3)))
                .one();
    }
}
