package chat.buzz.relay.testing;

import io.dropwizard.db.DataSourceFactory;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A fresh PostgreSQL database per test class, on the server {@link TestServer} chooses: the one named by
 * BUZZ_TEST_DATABASE_URL, else an embedded server of the production major version, started once per
 * JVM.
 */
public final class TestDatabases {
    public static final String USER = "postgres";
    private static String serverUrl;

    private TestDatabases() {}

    public static String fresh() {
        String server = serverUrl();
        String name =
                "buzz_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        execute(server, "CREATE DATABASE " + name);
        return withDatabase(server, name);
    }

    public static void drop(String url) {
        String name = databaseName(url);
        execute(serverUrl(), "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    /** The settings the relay's pool and migrations take, pointed at a test database. */
    public static DataSourceFactory settings(String url) {
        DataSourceFactory settings = new DataSourceFactory();
        settings.setDriverClass("org.postgresql.Driver");
        settings.setUrl(url);
        settings.setUser(USER);
        settings.setPassword("");
        return settings;
    }

    /** Lets new connections into the test database, or refuses them all (the open ones stay open). */
    public static void allowConnections(String url, boolean allowed) {
        execute(serverUrl(), "ALTER DATABASE " + databaseName(url) + " ALLOW_CONNECTIONS " + allowed);
    }

    /** The server the test databases are created on (its postgres database). */
    static synchronized String serverUrl() {
        if (serverUrl == null) {
            serverUrl = switch (TestServer.choose(System.getenv())) {
                case CONFIGURED -> System.getenv(TestServer.URL_VARIABLE);
                case EMBEDDED -> startedEmbedded();
            };
        }
        return serverUrl;
    }

    private static String startedEmbedded() {
        EmbeddedPostgres embedded;
        try {
            embedded = EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL for tests", e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                embedded.close();
            } catch (IOException ignored) {
                // the JVM is exiting; the temporary cluster directory goes with it
            }
        }));
        return embedded.getJdbcUrl(USER, "postgres");
    }

    private static void execute(String url, String sql) {
        try (Connection connection = DriverManager.getConnection(url, USER, "");
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("test database setup failed: " + sql, e);
        }
    }

    /** jdbc:postgresql://host:port/db?params with db replaced. */
    public static String withDatabase(String url, String database) {
        int slash = url.indexOf('/', "jdbc:postgresql://".length());
        int query = url.indexOf('?', slash);
        return url.substring(0, slash + 1) + database + (query < 0 ? "" : url.substring(query));
    }

    static String databaseName(String url) {
        int slash = url.indexOf('/', "jdbc:postgresql://".length());
        int query = url.indexOf('?', slash);
        return query < 0 ? url.substring(slash + 1) : url.substring(slash + 1, query);
    }
}
