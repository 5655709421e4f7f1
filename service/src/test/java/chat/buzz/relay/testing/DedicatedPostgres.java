package chat.buzz.relay.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A PostgreSQL server of one test's own, which the test may stop and start again (same port, same
 * data) to play a database outage without disturbing anyone else's server.
 */
public final class DedicatedPostgres implements AutoCloseable {
    private final Path dataDirectory;
    private final int port;
    private EmbeddedPostgres server;

    private DedicatedPostgres(Path dataDirectory, int port) {
        this.dataDirectory = dataDirectory;
        this.port = port;
    }

    public static DedicatedPostgres start() {
        try {
            DedicatedPostgres postgres =
                    new DedicatedPostgres(Files.createTempDirectory("buzz-dedicated-pg"), freePort());
            postgres.startAgain();
            return postgres;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
    }

    /** A fast shutdown: every open connection of the relay breaks, new ones are refused. */
    public synchronized void stop() {
        if (server != null) {
            try {
                server.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server = null;
        }
    }

    public synchronized void startAgain() {
        if (server != null) {
            return;
        }
        try {
            server = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the dedicated PostgreSQL", e);
        }
    }

    @Override
    public void close() {
        stop();
        try (var files = Files.walk(dataDirectory)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
