package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.changes.Change;
import chat.buzz.relay.changes.ChangeQueries;
import chat.buzz.relay.database.BackgroundFailures;
import chat.buzz.relay.database.DatabaseFaults;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.lifecycle.Managed;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's one LISTEN connection. It is a plain JDBC connection outside the pool, because
 * a pooled connection would be handed to other work and LISTEN belongs to the session. After a
 * reconnect, notifications sent in between are lost, so every subscriber is told to resubscribe.
 */
final class ChangeListener implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(ChangeListener.class);
    private final BackgroundFailures lostFeed =
            new BackgroundFailures(LOG, "Sync change listener lost its database connection; reconnecting");
    private static final int POLL_MILLIS = 500;
    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 5_000;

    /** Where the changes go. */
    interface Feed {
        /** Runs on the listener thread: only queues work. */
        void changed(Change change);

        /** Notifications may have been lost: every subscriber rebuilds from a fresh snapshot. */
        void lost(String message);
    }

    private final DataSourceFactory database;
    private final Feed feed;
    private final CountDownLatch firstListen = new CountDownLatch(1);
    private volatile boolean running;
    private volatile boolean listening;
    private volatile Connection connection;
    private Thread thread;

    ChangeListener(DataSourceFactory database, Feed feed) {
        this.database = database;
        this.feed = feed;
    }

    @Override
    public void start() throws InterruptedException {
        running = true;
        thread = new Thread(this::run, "sync-change-listener");
        thread.setDaemon(true);
        thread.start();
        // Subscriptions are gapless only once LISTEN is in place; do not serve before that.
        if (!firstListen.await(30, TimeUnit.SECONDS)) {
            LOG.warn("Sync change listener not connected yet; live updates start when it is");
        }
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        closeQuietly(connection);
        if (thread != null) {
            thread.interrupt();
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
    }

    private void run() {
        long backoff = FIRST_BACKOFF_MILLIS;
        boolean listenedBefore = false;
        while (running) {
            try (Connection conn = connect()) {
                connection = conn;
                try (Statement statement = conn.createStatement()) {
                    statement.execute("LISTEN " + ChangeQueries.NOTIFY_CHANNEL);
                }
                if (listenedBefore) {
                    feed.lost(ErrorCodes.SYNC_RESET_PREFIX
                            + "the relay lost its change feed for a moment; subscribe again");
                }
                listenedBefore = true;
                listening = true;
                lostFeed.succeeded();
                firstListen.countDown();
                backoff = FIRST_BACKOFF_MILLIS;
                PGConnection pg = conn.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] notifications = pg.getNotifications(POLL_MILLIS);
                    if (notifications != null) {
                        for (PGNotification notification : notifications) {
                            deliver(notification.getParameter());
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                listening = false;
                if (!running) {
                    return;
                }
                if (DatabaseFaults.isFault(e)) {
                    // One line per outage with its kind; the retries say nothing until LISTEN is back.
                    lostFeed.failed(e);
                } else if (backoff == FIRST_BACKOFF_MILLIS) {
                    LOG.warn("Sync change listener lost its database connection; reconnecting", e);
                } else {
                    // The stack trace was logged when the connection was lost; an outage is not a trace per retry.
                    LOG.info(
                            "Sync change listener still cannot connect ({}); next try in {} ms",
                            e.getMessage(),
                            backoff);
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
            }
        }
    }

    /** Whether LISTEN is in place now, so live updates reach this instance's WebSocket clients. */
    boolean isListening() {
        return listening;
    }

    private void deliver(String payload) {
        try {
            feed.changed(Change.fromPayload(payload));
        } catch (IllegalArgumentException e) {
            LOG.warn("Ignoring a sync notification that is not a change: {}", payload);
        }
    }

    private Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.putAll(database.getProperties());
        if (database.getUser() != null) {
            properties.setProperty("user", database.getUser());
        }
        if (database.getPassword() != null) {
            properties.setProperty("password", database.getPassword());
        }
        // The instance's name when it set one, so its LISTEN session counts as one of its sessions.
        properties.putIfAbsent("ApplicationName", "buzz-relay sync listener");
        return DriverManager.getConnection(database.getUrl(), properties);
    }

    private static void closeQuietly(Connection conn) {
        if (conn != null) {
            try {
                conn.close();
            } catch (SQLException ignored) {
                // closing only to wake the listener thread; it is going away anyway
            }
        }
    }
}
