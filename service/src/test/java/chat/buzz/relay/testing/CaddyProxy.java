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

/**
 * Debian's caddy running deploy/caddy/Caddyfile on a free 127.0.0.1 port over plain HTTP, with the
 * test's relays as upstreams, its own state directory and no admin endpoint (tests run side by side).
 * It logs at debug level (each upstream chosen, each health check), for the failure messages of tests.
 */
public final class CaddyProxy implements ShippedProxy {
    public static final Path CADDYFILE = Path.of("..", "deploy", "caddy", "Caddyfile");
    private static final Pattern SITE = Pattern.compile("(?m)^chat\\.example\\.com \\{");
    private static final Pattern UPSTREAMS = Pattern.compile("reverse_proxy( @[\\w-]+)?( [^@{\\s][^{\\n]*)\\{");

    private final Process process;
    private final Path directory;
    private final int port;

    private CaddyProxy(Process process, Path directory, int port) {
        this.process = process;
        this.directory = directory;
        this.port = port;
    }

    /** @param upstreams host:port of each relay instance */
    public static CaddyProxy start(List<String> upstreams) throws IOException {
        Path directory = Files.createTempDirectory("buzz-caddy");
        int port = NginxProxy.freePort();
        Files.writeString(directory.resolve("Caddyfile"), site(Files.readString(CADDYFILE), upstreams, port));
        ProcessBuilder builder = new ProcessBuilder(
                        "caddy",
                        "run",
                        "--adapter",
                        "caddyfile",
                        "--config",
                        directory.resolve("Caddyfile").toString())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("caddy.log").toFile());
        builder.environment().put("XDG_DATA_HOME", directory.resolve("data").toString());
        builder.environment().put("XDG_CONFIG_HOME", directory.resolve("config").toString());
        builder.environment().put("HOME", directory.toString());
        CaddyProxy proxy = new CaddyProxy(builder.start(), directory, port);
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> !proxy.process.isAlive() || NginxProxy.accepts(port));
        if (!proxy.process.isAlive()) {
            throw new IllegalStateException("caddy exited: " + Files.readString(directory.resolve("caddy.log")));
        }
        return proxy;
    }

    static String site(String shipped, List<String> upstreams, int port) {
        if (!SITE.matcher(shipped).find() || !UPSTREAMS.matcher(shipped).find()) {
            throw new IllegalStateException(
                    CADDYFILE + " no longer has 'chat.example.com {' and 'reverse_proxy ... {'");
        }
        String local = SITE.matcher(shipped)
                .replaceFirst(Matcher.quoteReplacement("http://localhost:" + port + " {\n\tbind 127.0.0.1"));
        // Every reverse_proxy (the WebSocket one has a matcher) gets the test's upstreams.
        String addresses = Matcher.quoteReplacement(" " + String.join(" ", upstreams) + " {");
        local = UPSTREAMS
                .matcher(local)
                .replaceAll(match -> "reverse_proxy"
                        + Matcher.quoteReplacement(match.group(1) == null ? "" : match.group(1)) + addresses);
        return "{\n\tdebug\n\tadmin off\n\tauto_https off\n}\n\n" + local;
    }

    @Override
    public String baseUrl() {
        return "http://localhost:" + port;
    }

    public String log() throws IOException {
        return Files.readString(directory.resolve("caddy.log"));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
