package chat.buzz.relay.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;

/** The container path of {@link TestServer}: runs only where a Docker engine answers. */
@IntegrationTest
@Testcontainers(disabledWithoutDocker = true)
class ContainerPostgresTest {
    @Test
    void theContainerRunsTheProductionMajorVersionAndTakesTheTestsUserWithoutPassword() throws Exception {
        try (PostgreSQLContainer container = TestDatabases.container()) {
            container.start();
            try (Connection connection = DriverManager.getConnection(container.getJdbcUrl(), TestDatabases.USER, "");
                    Statement statement = connection.createStatement();
                    ResultSet version = statement.executeQuery("SHOW server_version_num")) {
                assertThat(version.next()).isTrue();
                assertThat(version.getInt(1) / 10000).isEqualTo(17);
            }
        }
    }
}
