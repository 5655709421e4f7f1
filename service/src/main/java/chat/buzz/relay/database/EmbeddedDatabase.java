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
 * first starts it, and the server's lifecycle stops it, last, after everything that uses it. If the JVM
 * ends without a stop (a failed start, a {@code db} command), a shutdown hook of ours stops it. Not
 * zonky's own hook: that one runs at once, beside the server's, and pulled the database away from the
 * components still stopping (a stack trace per component on every normal stop).
 */
public final class EmbeddedDatabase implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);
    /** How long the exit hook waits for the server's own orderly stop (Jetty's stop timeout is 30 s). */
    private static final long SERVER_STOP_WAIT_MILLIS = 35_000;

    private final EmbeddedDatabaseConfig config;
    private EmbeddedPostgres running;
    private boolean stoppedByServer;
    private boolean exitHookInstalled;

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
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(directory)
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false);
            if (config.getPort() > 0) {
                builder.setPort(config.getPort());
            }
            running = builder.start();
            DataDirectoryOwner.record(directory);
            installExitHook();
            LOG.info("Embedded PostgreSQL listening on 127.0.0.1:{} with data in {}", running.getPort(), directory);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL in " + directory, e);
        } catch (IllegalStateException e) {
            throw DataDirectoryOwner.isLockFailure(e) ? DataDirectoryOwner.alreadyInUse(directory) : e;
        }
    }

    /** The server's lifecycle will stop this database: the exit hook then waits for that orderly stop. */
    public synchronized void stoppedByServer() {
        stoppedByServer = true;
    }

    private void installExitHook() {
        if (!exitHookInstalled) {
            exitHookInstalled = true;
            Runtime.getRuntime().addShutdownHook(new Thread(this::stopAtExit, "embedded-postgres-exit"));
        }
    }

    private void stopAtExit() {
        synchronized (this) {
            long deadline = System.currentTimeMillis() + (stoppedByServer ? SERVER_STOP_WAIT_MILLIS : 0);
            try {
                while (running != null && System.currentTimeMillis() < deadline) {
                    wait(Math.max(1, deadline - System.currentTimeMillis()));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        stop();
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
        notifyAll();
    }
}
