package chat.buzz.relay.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Debian's haproxy running deploy/haproxy/haproxy.cfg in the foreground on a free 127.0.0.1 port over
 * plain HTTP, with the test's relays as its servers, its log (every request, every server going down or
 * up) on stdout into a file, and without what needs root (chroot, user, the stats socket under /run).
 * .ci/run installs haproxy; nothing starts it as a service.
 */
public final class HaproxyProxy implements ShippedProxy {
    public static final Path CONFIG = Path.of("..", "deploy", "haproxy", "haproxy.cfg");
    private static final Path BINARY = Path.of("/usr/sbin/haproxy");
    private static final Pattern TLS_BIND = Pattern.compile("(?m)^(\\s*)bind :443 ssl .*$");
    /** The shipped servers' addresses, in the order of the test's upstreams. */
    private static final List<String> SHIPPED = List.of("127.0.0.1:8080", "127.0.0.1:8090");

    private static final Pattern SERVER = Pattern.compile("(?m)^(\\s*server \\S+ )(\\S+)(.*)$");
    private static final Pattern ROOT_ONLY = Pattern.compile("(?m)^\\s*(chroot|user|group|stats socket) .*\\n");
    private static final Pattern SYSLOG = Pattern.compile("(?m)^(\\s*)log /dev/log (\\S+)$");

    private final Process process;
    private final Path directory;
    private final int port;

    private HaproxyProxy(Process process, Path directory, int port) {
        this.process = process;
        this.directory = directory;
        this.port = port;
    }

    /** @param upstreams host:port of the two relay instances, in place of the shipped file's two */
    public static HaproxyProxy start(List<String> upstreams) throws IOException {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException("haproxy is not installed (apt-get install haproxy; .ci/run installs it)");
        }
        Path directory = Files.createTempDirectory("buzz-haproxy");
        int port = NginxProxy.freePort();
        Path config = directory.resolve("haproxy.cfg");
        Files.writeString(config, config(Files.readString(CONFIG), upstreams, port));
        Process process = new ProcessBuilder(BINARY.toString(), "-db", "-f", config.toString())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("haproxy.log").toFile())
                .start();
        HaproxyProxy proxy = new HaproxyProxy(process, directory, port);
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> !process.isAlive() || NginxProxy.accepts(port));
        } catch (ConditionTimeoutException e) {
            proxy.close();
            throw new IllegalStateException("haproxy did not listen on 127.0.0.1:" + port + ": " + proxy.log(), e);
        }
        if (!process.isAlive()) {
            throw new IllegalStateException("haproxy exited with " + process.exitValue() + ": " + proxy.log());
        }
        return proxy;
    }

    static String config(String shipped, List<String> upstreams, int port) {
        if (!TLS_BIND.matcher(shipped).find()
                || !SERVER.matcher(shipped).find()
                || !SYSLOG.matcher(shipped).find()) {
            throw new IllegalStateException(CONFIG + " no longer has 'bind :443 ssl ...', 'log /dev/log ...' and"
                    + " 'server <name> <address>' lines");
        }
        if (upstreams.size() != SHIPPED.size()) {
            throw new IllegalArgumentException("the shipped file has two instances, not " + upstreams.size());
        }
        String local = TLS_BIND.matcher(shipped).replaceFirst("$1bind 127.0.0.1:" + port);
        local = SYSLOG.matcher(local).replaceFirst("$1log stdout format raw $2");
        local = ROOT_ONLY.matcher(local).replaceAll("");
        // Each server line, checked or backup, keeps its name and parameters and gets the test's address.
        return SERVER.matcher(local).replaceAll(server -> {
            int instance = SHIPPED.indexOf(server.group(2));
            if (instance < 0) {
                throw new IllegalStateException(
                        CONFIG + ": a server at " + server.group(2) + ", not one of " + SHIPPED);
            }
            return Matcher.quoteReplacement(server.group(1) + upstreams.get(instance) + server.group(3));
        });
    }

    @Override
    public String baseUrl() {
        return "http://localhost:" + port;
    }

    /** HAProxy's log: a line per request (server, timers, retries, status) and per server state change. */
    public String log() {
        try {
            return Files.readString(directory.resolve("haproxy.log"));
        } catch (IOException e) {
            return "(no haproxy log: " + e + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
