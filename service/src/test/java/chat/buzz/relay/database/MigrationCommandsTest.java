package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** `db migrate` and friends from dropwizard-migrations, run as an operator would, against config/production.yml. */
@IntegrationTest
class MigrationCommandsTest {
    private String databaseUrl;

    @BeforeEach
    void freshDatabase() {
        databaseUrl = TestDatabases.fresh();
    }

    @AfterEach
    void dropDatabase() {
        TestDatabases.drop(databaseUrl);
    }

    @Test
    void migrateCreatesTheSchemaAndStatusThenReportsNothingPending() throws Exception {
        Result migrate = relay("db", "migrate");
        assertThat(migrate.exitCode()).as(migrate.output()).isZero();
        List<String> tables = Jdbi.create(databaseUrl, TestDatabases.USER, "")
                .withHandle(h -> h.createQuery(
                                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")
                        .mapTo(String.class)
                        .list());
        assertThat(tables)
                .contains(
                        "communities",
                        "channels",
                        "channel_members",
                        "events",
                        "artifact_heads",
                        "artifact_revisions",
                        "nip98_replay_guard",
                        "databasechangelog");

        Result status = relay("db", "status");
        assertThat(status.exitCode()).as(status.output()).isZero();
        assertThat(status.output()).contains("is up to date");
    }

    @Test
    void statusListsPendingChangesetsOnAnEmptyDatabase() throws Exception {
        Result status = relay("db", "status", "--verbose");
        assertThat(status.exitCode()).as(status.output()).isZero();
        assertThat(status.output())
                .contains("changesets have not been applied")
                .contains("0001-create-communities::buzz");
    }

    private record Result(int exitCode, String output) {}

    private Result relay(String... command) throws IOException, InterruptedException {
        List<String> args = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "chat.buzz.relay.BuzzRelayApplication"));
        args.addAll(List.of(command));
        args.add(Path.of("..", "config", "production.yml").toString());
        ProcessBuilder builder = new ProcessBuilder(args).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.put("BUZZ_DATABASE_URL", databaseUrl);
        env.put("BUZZ_DATABASE_USER", TestDatabases.USER);
        env.put("BUZZ_RELAY_SECRET_KEY", "0".repeat(63) + "5");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }
}
