package chat.buzz.relay.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Debian's nginx in front of relays, run from the site file the deployment guide ships
 * (deploy/nginx/buzz-relay.conf) with its TLS lines dropped, its listen address on a free 127.0.0.1
 * port and its upstream servers replaced. .ci/run installs nginx.
 */
public final class NginxProxy implements ShippedProxy {
    public static final Path SITE = Path.of("..", "deploy", "nginx", "buzz-relay.conf");
    private static final Pattern UPSTREAM = Pattern.compile("upstream buzz_relay \\{[^}]*}");
    /** The parameters after the address of the shipped site's first upstream server. */
    private static final Pattern SERVER_PARAMETERS =
            Pattern.compile("upstream buzz_relay \\{\\s*server \\S+?((?: [^;\\s]+)*);");

    private final Process process;
    private final Path directory;
    private final int port;

    private NginxProxy(Process process, Path directory, int port) {
        this.process = process;
        this.directory = directory;
        this.port = port;
    }

    /** @param upstreams host:port of each relay instance */
    public static NginxProxy start(List<String> upstreams) throws IOException {
        Path directory = Files.createTempDirectory("buzz-nginx");
        int port = freePort();
        Files.writeString(directory.resolve("site.conf"), site(Files.readString(SITE), upstreams, port));
        Files.writeString(directory.resolve("nginx.conf"), main(directory));
        Process process = new ProcessBuilder(
                        binary(),
                        "-p",
                        directory.toString(),
                        "-e",
                        directory.resolve("error.log").toString(),
                        "-c",
                        directory.resolve("nginx.conf").toString())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve("stdout.log").toFile())
                .start();
        NginxProxy proxy = new NginxProxy(process, directory, port);
        proxy.awaitListening();
        return proxy;
    }

    @Override
    public String baseUrl() {
        return "http://localhost:" + port;
    }

    public int port() {
        return port;
    }

    /** One line per request: the URI, the status and each upstream nginx tried. */
    public List<String> accessLog() throws IOException {
        Path log = directory.resolve("access.log");
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    static String site(String shipped, List<String> upstreams, int port) {
        String withoutTls =
                shipped.lines().filter(line -> !line.trim().startsWith("ssl_")).collect(Collectors.joining("\n"));
        if (!withoutTls.contains("listen 443 ssl;")
                || !UPSTREAM.matcher(withoutTls).find()) {
            throw new IllegalStateException(SITE + " no longer has 'listen 443 ssl;' and 'upstream buzz_relay {...}'");
        }
        // Each test upstream takes the parameters the shipped servers have (max_fails, fail_timeout).
        Matcher shippedServer = SERVER_PARAMETERS.matcher(withoutTls);
        String parameters = shippedServer.find() ? shippedServer.group(1) : "";
        String servers = upstreams.stream()
                .map(upstream -> "    server " + upstream + parameters + ";\n")
                .collect(Collectors.joining());
        return UPSTREAM.matcher(withoutTls.replace("listen 443 ssl;", "listen 127.0.0.1:" + port + ";"))
                .replaceFirst(Matcher.quoteReplacement("upstream buzz_relay {\n" + servers + "}"));
    }

    private static String main(Path directory) {
        String dir = directory.toString();
        boolean root = "root".equals(System.getProperty("user.name"));
        return (root ? "user root;\n" : "") + """
                worker_processes 1;
                daemon off;
                pid %1$s/nginx.pid;
                events { worker_connections 256; }
                http {
                    log_format upstreams '$request_uri $status $upstream_addr';
                    access_log %1$s/access.log upstreams;
                    client_body_temp_path %1$s/client-body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    include %1$s/site.conf;
                }
                """.formatted(dir);
    }

    private void awaitListening() throws IOException {
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> !process.isAlive() || accepts(port));
        } catch (ConditionTimeoutException e) {
            close();
            throw new IllegalStateException("nginx did not listen on 127.0.0.1:" + port, e);
        }
        if (!process.isAlive()) {
            throw new IllegalStateException("nginx exited with " + process.exitValue() + ": "
                    + Files.readString(directory.resolve("stdout.log")) + readIfExists(directory.resolve("error.log")));
        }
    }

    /** Whether something listens on 127.0.0.1:{@code port}: a proxy process is up. */
    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    private static String readIfExists(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }

    private static String binary() {
        for (String candidate : List.of("/usr/sbin/nginx", "/usr/bin/nginx")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("nginx is not installed (apt-get install nginx; .ci/run installs it)");
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
