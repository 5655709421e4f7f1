package chat.buzz.relay.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.runbooks.RunbookScript;
import chat.buzz.relay.runbooks.RunbookShell;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.NginxProxy;
import chat.buzz.relay.testing.TestDatabases;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * docs/deployment.md from an empty PostgreSQL to a serving fleet: its blocks marked {@code <!-- run:
 * before-start -->} in one bash (role, database, environment files, migration) with the packaged jar,
 * then two instances started the way the systemd unit starts them (its environment files, its
 * instance name, {@code java -jar ... server}) on free ports, the shipped nginx site in front, and the
 * {@code <!-- run: serving -->} blocks against the proxy. The fleet then answers NIP-11 through nginx
 * and lists both instances.
 */
@IntegrationTest
class DeploymentGuideTest {
    private static final Path GUIDE = Path.of("..", "docs", "deployment.md");
    private static final Path JAR = Path.of("target", "buzz-relay.jar");
    private static final Path PRODUCTION = Path.of("..", "config", "production.yml");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path UNIT = Path.of("..", "deploy", "systemd", "buzz-relay@.service");

    @Test
    void theGuideTakesAnEmptyDatabaseToAServingFleet() throws Exception {
        String name =
                "buzz_guide_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        Path etc = Files.createTempDirectory("guide-etc");
        Path opt = Files.createTempDirectory("guide-opt");
        // The machine's PostgreSQL, as psql and the relay reach it over TCP.
        String probe = TestDatabases.fresh();
        TestDatabases.drop(probe);
        String server = TestDatabases.withDatabase(probe, "postgres");
        URI address = URI.create(server.substring("jdbc:".length()));
        Map<String, String> env = new HashMap<>();
        env.put("DB_HOST", address.getHost());
        env.put("DB_PORT", String.valueOf(address.getPort() < 0 ? 5432 : address.getPort()));
        env.put("DB_NAME", name);
        env.put("PUBLIC_HOST", "localhost");
        env.put("ETC", etc.toString());
        env.put("OPT", opt.toString());
        env.put("JAR", JAR.toAbsolutePath().toString());
        env.put("CONFIG", PRODUCTION.toAbsolutePath().toString());
        List<Process> instances = new ArrayList<>();
        NginxProxy nginx = null;
        try {
            RunbookShell.run(blocks("before-start"), env);
            assertThat(opt.resolve("buzz-relay.jar"))
                    .as("the guide installed the jar the unit runs")
                    .isRegularFile()
                    .hasSameBinaryContentAs(JAR);

            Map<String, Integer> adminPorts = new HashMap<>();
            List<String> upstreams = new ArrayList<>();
            for (String instance : List.of("a", "b")) {
                int http = NginxProxy.freePort();
                int admin = NginxProxy.freePort();
                // Adapted like the nginx site: the guide's fixed ports are taken on a shared machine.
                Path file = etc.resolve(instance + ".env");
                Files.writeString(
                        file,
                        Files.readString(file)
                                .replaceFirst("BUZZ_HTTP_PORT=\\d+", "BUZZ_HTTP_PORT=" + http)
                                .replaceFirst("BUZZ_ADMIN_PORT=\\d+", "BUZZ_ADMIN_PORT=" + admin));
                instances.add(startAsTheUnitDoes(etc, opt, instance));
                adminPorts.put(instance, admin);
                upstreams.add("127.0.0.1:" + http);
            }
            nginx = NginxProxy.start(upstreams);
            String publicUrl = nginx.baseUrl();
            env.put("PUBLIC_URL", publicUrl);
            HttpClient client = HttpClient.newHttpClient();
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() -> status(client, publicUrl + "/health/ready") == 200);

            RunbookShell.run(blocks("serving"), env);

            HttpResponse<String> info = client.send(
                    HttpRequest.newBuilder(URI.create(publicUrl + "/"))
                            .header("Accept", "application/nostr+json")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(info.statusCode()).as(info.body()).isEqualTo(200);
            assertThat(JSON.readTree(info.body()).path("name").asText()).isEqualTo("Example chat");

            String token = commonEnv(etc).getProperty("BUZZ_ADMIN_TOKEN");
            HttpRequest fleet = HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + adminPorts.get("a") + "/api/instances"))
                    .header("Authorization", "Bearer " + token)
                    .build();
            await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(500))
                    .until(
                            () -> instanceNames(client.send(fleet, HttpResponse.BodyHandlers.ofString())),
                            names -> names.stream().anyMatch(n -> n.startsWith("buzz-relay@a"))
                                    && names.stream().anyMatch(n -> n.startsWith("buzz-relay@b")));
        } finally {
            if (nginx != null) {
                nginx.close();
            }
            for (Process instance : instances) {
                instance.destroy();
                if (!instance.waitFor(1, TimeUnit.MINUTES)) {
                    instance.destroyForcibly();
                }
            }
            dropDatabaseAndRole(server, name);
        }
    }

    private static RunbookScript blocks(String phase) throws IOException {
        List<String> marked = new ArrayList<>();
        List<String> lines = Files.readAllLines(GUIDE);
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals("<!-- run: " + phase + " -->")) {
                StringBuilder block = new StringBuilder();
                int indent = lines.get(i + 1).indexOf("```sh");
                assertThat(indent)
                        .as("%s line %d: a marker precedes a ```sh block", GUIDE, i + 1)
                        .isNotNegative();
                for (int j = i + 2; !lines.get(j).strip().equals("```"); j++) {
                    String line = lines.get(j);
                    block.append(line.length() >= indent ? line.substring(indent) : line.strip())
                            .append('\n');
                }
                marked.add(block.toString());
            }
        }
        assertThat(marked).as("%s has blocks marked run: %s", GUIDE, phase).isNotEmpty();
        return new RunbookScript(GUIDE, marked);
    }

    /**
     * deploy/systemd/buzz-relay@.service as a shell: its Environment= lines, then its EnvironmentFile=s
     * (which systemd lets override them), then its ExecStart with the guide's $ETC and $OPT for the
     * unit's fixed directories. So the test starts the JVM with the unit's own flags (the heap limit too).
     */
    static String unitAsShell() throws IOException {
        List<String> shell = new ArrayList<>(List.of("set -a"));
        List<String> files = new ArrayList<>();
        String execStart = null;
        for (String line : Files.readAllLines(UNIT)) {
            String value = line.substring(line.indexOf('=') + 1).replace("%i", "$INSTANCE");
            if (line.startsWith("Environment=")) {
                shell.add(value);
            } else if (line.startsWith("EnvironmentFile=")) {
                files.add(". \"" + value.replace("/etc/buzz-relay", "$ETC") + "\"");
            } else if (line.startsWith("ExecStart=")) {
                execStart = value.replace("/usr/bin/java", "java").replace("/opt/buzz-relay", "$OPT");
            }
        }
        assertThat(execStart).as("%s has an ExecStart", UNIT).isNotNull();
        shell.addAll(files);
        shell.add("set +a");
        shell.add("exec " + execStart);
        return String.join("\n", shell);
    }

    /** As deploy/systemd/buzz-relay@.service does: both environment files, its instance name, the jar. */
    private static Process startAsTheUnitDoes(Path etc, Path opt, String instance) throws IOException {
        Path log = Files.createTempFile("guide-instance-" + instance, ".log");
        ProcessBuilder unit = new ProcessBuilder("bash", "-c", unitAsShell())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        unit.environment().put("ETC", etc.toString());
        unit.environment().put("OPT", opt.toString());
        unit.environment().put("INSTANCE", instance);
        return unit.start();
    }

    private static Properties commonEnv(Path etc) throws IOException {
        Properties values = new Properties();
        try (var reader = Files.newBufferedReader(etc.resolve("common.env"))) {
            values.load(reader);
        }
        return values;
    }

    private static List<String> instanceNames(HttpResponse<String> reply) throws IOException {
        if (reply.statusCode() != 200) {
            return List.of();
        }
        return StreamSupport.stream(
                        JSON.readTree(reply.body()).path("instances").spliterator(), false)
                .map(i -> i.path("report").path("instanceId").asText().toLowerCase(Locale.ROOT))
                .toList();
    }

    private static int status(HttpClient client, String url) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static void dropDatabaseAndRole(String server, String name) throws Exception {
        try (Connection connection = DriverManager.getConnection(server, TestDatabases.USER, "");
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            statement.execute("DROP ROLE IF EXISTS " + name);
        }
    }
}
