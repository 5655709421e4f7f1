package chat.buzz.relay.testing;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A redis-server of the test's own on a free 127.0.0.1 port, without persistence, for tests that stop
 * Redis: the shared one ({@link TestRedis}) is never stopped. Started again, it comes back on the same port
 * and empty, as a Redis without persistence does after a restart.
 */
public final class RedisServer implements AutoCloseable {
    private final Path directory;
    private final int port;
    private Process process;

    private RedisServer(Path directory, int port) {
        this.directory = directory;
        this.port = port;
    }

    /** Starts one whose files (only its log) go under {@code directory}, and waits until it answers. */
    public static RedisServer start(Path directory) throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        RedisServer server = new RedisServer(directory, port);
        server.start();
        return server;
    }

    public void start() throws IOException {
        process = new ProcessBuilder(List.of(
                        "redis-server",
                        "--bind",
                        "127.0.0.1",
                        "--port",
                        Integer.toString(port),
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        directory.toString(),
                        "--logfile",
                        directory.resolve("redis-" + port + ".log").toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        directory.resolve("redis-" + port + ".out").toFile()))
                .start();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(this::answers);
    }

    /** SIGTERM, as an operator or a crash would take it away, and waits until the process is gone. */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    public String url() {
        return "redis://127.0.0.1:" + port + "/0";
    }

    public boolean answers() {
        if (process == null || !process.isAlive()) {
            return false;
        }
        try (Jedis jedis = new Jedis("127.0.0.1", port, 500)) {
            return "PONG".equals(jedis.ping());
        } catch (JedisException e) {
            return false;
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            stop();
        }
    }
}
