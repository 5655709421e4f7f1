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
 * Local mode's own PostgreSQL, its files kept in the configured directory across restarts. One per
 * relay (and one per {@code db} command): {@link #start} is idempotent, so whoever needs the address
 * first starts it, and the server's lifecycle stops it. If the JVM ends without a stop (a failed start,
 * a {@code db} command), zonky's own shutdown hook stops the server.
 */
public final class EmbeddedDatabase implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);

    private final EmbeddedDatabaseConfig config;
    private EmbeddedPostgres running;

    public EmbeddedDatabase(EmbeddedDatabaseConfig config) {
        this.config = config;
    }

    @Override
    public synchronized void start() {
        if (running != null) {
            return;
        }
        Path directory = Path.of(config.getDataDirectory()).toAbsolutePath().normalize();
        try {
            Files.createDirectories(directory);
            EmbeddedPostgres.Builder builder =
                    EmbeddedPostgres.builder().setDataDirectory(directory).setCleanDataDirectory(false);
            if (config.getPort() > 0) {
                builder.setPort(config.getPort());
            }
            running = builder.start();
            LOG.info("Embedded PostgreSQL listening on 127.0.0.1:{} with data in {}", running.getPort(), directory);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL in " + directory, e);
        }
    }

    /** Points the configured data source at this server, starting it first if nobody has yet. */
    public DataSourceFactory pointAt(DataSourceFactory dataSource) {
        String url;
        synchronized (this) {
            start();
            url = running.getJdbcUrl("postgres", "postgres");
        }
        dataSource.setUrl(url);
        dataSource.setUser("postgres");
        dataSource.setPassword("");
        return dataSource;
    }

    /** So a restart in the same JVM starts it again on the same files. */
    @Override
    public synchronized void stop() {
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
