package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import io.dropwizard.core.setup.Environment;
import java.lang.reflect.Proxy;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGStatement;
import org.postgresql.jdbc.PgResultSet;

/**
 * The relay's pool hands out the driver's own statements and result sets, with no reflective proxy in
 * front of every column read, and its handles still read what the database holds.
 */
@IntegrationTest
class PooledStatementsTest {
    private static String url;
    private static Environment environment;
    private static Jdbi jdbi;

    @BeforeAll
    static void connect() throws Exception {
        url = TestDatabases.fresh();
        environment = new Environment("pooled-statements");
        jdbi = DatabaseFeature.register(
                        environment,
                        new EmbeddedDatabaseConfig(),
                        TestDatabases.settings(url),
                        false,
                        Database.CHANGELOG,
                        Clock.systemUTC())
                .jdbi();
    }

    @AfterAll
    static void disconnect() throws Exception {
        environment.lifecycle().getManagedObjects().forEach(managed -> {
            try {
                managed.stop();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        TestDatabases.drop(url);
    }

    @Test
    void statementsAndResultSetsAreTheDriversOwn() throws SQLException {
        jdbi.useHandle(handle -> {
            try (PreparedStatement statement = handle.getConnection().prepareStatement("SELECT 41 + 1");
                    ResultSet rows = statement.executeQuery()) {
                assertThat(Proxy.isProxyClass(statement.getClass())).isFalse();
                assertThat(statement).isInstanceOf(PGStatement.class);
                assertThat(rows).isInstanceOf(PgResultSet.class);
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(42);
            }
        });
    }

    @Test
    void jdbiQueriesReadThroughThePool() {
        String answer = jdbi.withHandle(handle -> handle.createQuery("SELECT CAST(:word AS text) || '!'")
                .bind("word", "pooled")
                .mapTo(String.class)
                .one());
        assertThat(answer).isEqualTo("pooled!");
    }
}
