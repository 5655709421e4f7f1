package chat.buzz.relay.runbooks;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.TestDatabases;
import chat.buzz.relay.testing.TestRelay;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a runbook's script in one bash, as an operator's terminal would, and fails with its transcript. */
public final class RunbookShell {
    private RunbookShell() {}

    public static void run(RunbookScript runbook, Map<String, String> environment) throws Exception {
        Path script = Files.createTempFile("runbook", ".sh");
        Path output = Files.createTempFile("runbook", ".out");
        try {
            Files.writeString(script, runbook.script());
            ProcessBuilder bash = new ProcessBuilder("bash", script.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            bash.environment().putAll(environment);
            Process process = bash.start();
            boolean finished = process.waitFor(5, TimeUnit.MINUTES);
            if (!finished) {
                process.destroyForcibly();
            }
            String transcript = Files.readString(output, StandardCharsets.UTF_8);
            assertThat(finished && process.exitValue() == 0)
                    .as("%s failed:%n%s", runbook.file().getFileName(), transcript)
                    .isTrue();
        } finally {
            Files.deleteIfExists(script);
            Files.deleteIfExists(output);
        }
    }

    public static Map<String, String> environment(TestRelay relay) throws IOException {
        URI database = URI.create(relay.databaseUrl().substring("jdbc:".length()));
        Map<String, String> env = new HashMap<>();
        env.put("BUZZ_ADMIN_URL", relay.adminUrl());
        env.put("BUZZ_ADMIN_TOKEN", AdminClient.OLIVIA);
        env.put("BUZZ_RELAY_URL", relay.baseUrl());
        env.put("BUZZ_DATABASE_URL", relay.databaseUrl());
        env.put("PGHOST", database.getHost());
        env.put("PGPORT", String.valueOf(database.getPort() < 0 ? 5432 : database.getPort()));
        env.put("PGDATABASE", database.getPath().substring(1));
        env.put("PGUSER", TestDatabases.USER);
        env.put("BUZZ_BACKUP_DIR", Files.createTempDirectory("runbook-backups").toString());
        env.put("BUZZ_RESTORE_DATABASE", restoreDatabase(relay));
        String java = ProcessHandle.current().info().command().orElse("java");
        env.put(
                "BUZZ_RELAY_CMD",
                java + " -cp " + System.getProperty("java.class.path") + " chat.buzz.relay.BuzzRelayApplication");
        env.put("BUZZ_CONFIG", commandConfig(relay).toString());
        return env;
    }

    /** What the relay's own `db` commands need to reach the same database. */
    private static Path commandConfig(TestRelay relay) throws IOException {
        Path config = Files.createTempFile("runbook-relay", ".yml");
        config.toFile().deleteOnExit();
        Files.writeString(config, """
                server:
                  applicationConnectors: [{type: http, bindHost: 127.0.0.1, port: 0}]
                  adminConnectors: [{type: http, bindHost: 127.0.0.1, port: 0}]
                database:
                  driverClass: org.postgresql.Driver
                  url: "%s"
                  user: postgres
                  password: ""
                relay:
                  secretKey: "0000000000000000000000000000000000000000000000000000000000000003"
                communities:
                  - name: test
                    hosts: [127.0.0.1]
                logging:
                  level: WARN
                """.formatted(relay.databaseUrl()));
        return config;
    }

    /** Where runbook 07 restores to; whoever ran it drops it. */
    public static String restoreDatabase(TestRelay relay) {
        URI database = URI.create(relay.databaseUrl().substring("jdbc:".length()));
        return database.getPath().substring(1) + "_restored";
    }
}
