package chat.buzz.relay.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relay as its own operating-system process, started the way the packaged jar starts it (the
 * application's main with config/production.yml), so a test can SIGKILL it.
 */
public final class RelayProcess implements AutoCloseable {
    /** The relay's own start-up summary: Jetty's start lines are quiet at the configured log levels. */
    private static final Pattern STARTED = Pattern.compile("Relay instance \\S+ serving on port (\\d+) ");

    private final Process process;
    private final Path log;
    private final int port;

    private RelayProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** Starts the relay on free 127.0.0.1 ports and waits until it serves; the log goes to {@code log}. */
    public static RelayProcess start(String databaseUrl, Path log, Map<String, String> environment)
            throws IOException, InterruptedException {
        return start(databaseUrl, log, environment, Map.of());
    }

    /**
     * As {@link #start(String, Path, Map)}, with configuration overrides such as {@code admin.heartbeat}
     * passed the way Dropwizard reads them from the command line ({@code -Ddw.admin.heartbeat=200ms}).
     */
    public static RelayProcess start(
            String databaseUrl, Path log, Map<String, String> environment, Map<String, String> configOverrides)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path")));
        configOverrides.forEach((key, value) -> command.add("-Ddw." + key + "=" + value));
        command.addAll(List.of(
                "chat.buzz.relay.BuzzRelayApplication",
                "server",
                Path.of("..", "config", "production.yml").toString()));
        ProcessBuilder builder = logTo(new ProcessBuilder(command), log);
        Map<String, String> env = builder.environment();
        env.put("BUZZ_DATABASE_URL", databaseUrl);
        env.put("BUZZ_DATABASE_USER", TestDatabases.USER);
        env.put("BUZZ_AUTO_MIGRATE", "true");
        env.put("BUZZ_HTTP_PORT", "0");
        env.put("BUZZ_ADMIN_PORT", "0");
        env.put("BUZZ_COMMUNITY_HOSTS", "127.0.0.1");
        // Letters, so YAML reads the key as text and not as a number.
        env.put("BUZZ_RELAY_SECRET_KEY", "a".repeat(63) + "7");
        env.put("BUZZ_PUBLIC_SCHEME", "http");
        env.put("BUZZ_ADMIN_TOKEN", "relay-process-test-operator-token-0001");
        // Stopping waits for no proxy unless a test says so.
        env.put("BUZZ_DRAIN_PERIOD", "0s");
        env.putAll(environment);
        return awaitStart(builder, log);
    }

    /**
     * Starts the relay in local mode (config/local.yml: its own PostgreSQL with files in {@code data}, a
     * generated key file beside them) on free 127.0.0.1 ports, and waits until it serves.
     */
    public static RelayProcess startLocal(Path data, Path log) throws IOException, InterruptedException {
        return awaitStart(localMode(data, log), log);
    }

    /** Runs a local-mode relay on {@code data} that is expected to refuse to start: its exit code. */
    public static int runLocalUntilExit(Path data, Path log) throws IOException, InterruptedException {
        Process process = localMode(data, log).start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("the relay kept running; its log:\n" + Files.readString(log));
        }
        return process.exitValue();
    }

    private static ProcessBuilder localMode(Path data, Path log) {
        ProcessBuilder builder = logTo(
                new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-Ddw.embeddedDatabase.dataDirectory=" + data.resolve("postgres"),
                        "-Ddw.relay.keyFile=" + data.resolve("relay-key"),
                        "chat.buzz.relay.BuzzRelayApplication",
                        "server",
                        Path.of("..", "config", "local.yml").toString()),
                log);
        Map<String, String> env = builder.environment();
        env.put("BUZZ_HTTP_PORT", "0");
        env.put("BUZZ_ADMIN_PORT", "0");
        env.put("BUZZ_ADMIN_TOKEN", "relay-process-test-operator-token-0001");
        env.remove("BUZZ_RELAY_SECRET_KEY");
        return builder;
    }

    private static ProcessBuilder logTo(ProcessBuilder builder, Path log) {
        return builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }

    private static RelayProcess awaitStart(ProcessBuilder builder, Path log) throws IOException, InterruptedException {
        long logStart = Files.exists(log) ? Files.size(log) : 0;
        Process process = builder.start();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        while (Instant.now().isBefore(deadline)) {
            Optional<Integer> port = startedPort(log, logStart);
            if (port.isPresent()) {
                return new RelayProcess(process, log, port.get());
            }
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the relay exited with " + process.exitValue() + "; its log:\n" + Files.readString(log));
            }
            // Waiting for another process to print a line: nothing to poll but its log.
            process.waitFor(200, TimeUnit.MILLISECONDS);
        }
        process.destroyForcibly();
        throw new IllegalStateException("the relay did not start within 3 minutes; its log:\n" + Files.readString(log));
    }

    private static Optional<Integer> startedPort(Path log, long from) throws IOException {
        byte[] all = Files.readAllBytes(log);
        String text = new String(
                all, (int) Math.min(from, all.length), (int) Math.max(0, all.length - from), StandardCharsets.UTF_8);
        Matcher matcher = STARTED.matcher(text);
        return matcher.find() ? Optional.of(Integer.parseInt(matcher.group(1))) : Optional.empty();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    /** SIGSTOP: the process holds its sockets and connections but runs nothing, like a frozen VM. */
    public void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #freeze()}. */
    public void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid()))
                .inheritIO()
                .start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** The status {@code GET path} answers on this relay (/health/ready, say), or -1 when nothing answers. */
    public int status(String path) {
        try {
            return HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(baseUrl() + path)).build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** SIGTERM without waiting: what happens while the relay drains is the caller's to watch. */
    public void terminate() throws IOException, InterruptedException {
        signal("TERM");
    }

    /** Waits for a terminated relay to end; its exit code. */
    public int awaitExit() throws InterruptedException {
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the relay did not stop within 2 minutes of SIGTERM");
        }
        return process.exitValue();
    }

    /** SIGTERM, the way an operator or systemd stops the relay, and waits for the process to end. */
    public int stop() throws IOException, InterruptedException {
        signal("TERM");
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the relay did not stop within 2 minutes of SIGTERM");
        }
        return process.exitValue();
    }

    /** SIGKILL: no shutdown hook, no connection closed politely, whatever was in flight stays in flight. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the relay survived SIGKILL");
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            try {
                thaw();
            } catch (IOException e) {
                // SIGKILL ends a stopped process too; thawing first only lets it leave no stopped zombie behind.
            }
            kill();
        }
    }
}
