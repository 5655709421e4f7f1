package chat.buzz.relay.runbooks;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.editChannel;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.incremental.IncrementalSchema;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.NginxProxy;
import chat.buzz.relay.testing.TestDatabases;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import liquibase.Liquibase;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs every runbook's sh blocks, in file order, against a fleet on a throwaway database, the way an
 * operator would: one shell per runbook. Two relays share the database behind Debian's nginx running
 * the deployment guide's site file; the public URL is nginx's, so a check that only holds on some
 * instances fails. The fleet starts at "incremental off" with the schema at the before-incremental
 * tag, and the runbooks take it to "on" and back.
 */
@IntegrationTest
class RunbooksTest {
    private static final Path RUNBOOKS = Path.of("..", "runbooks");

    @RegisterExtension
    @Order(1)
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("relay.trustedProxies", "127.0.0.1"));

    @RegisterExtension
    @Order(2)
    static final TestRelay SECOND =
            TestRelay.anotherInstance(RELAY, ConfigOverride.config("relay.trustedProxies", "127.0.0.1"));

    private static NginxProxy nginx;

    @BeforeAll
    static void proxyInFront() throws IOException {
        nginx = NginxProxy.start(List.of(hostAndPort(RELAY), hostAndPort(SECOND)));
    }

    @AfterAll
    static void stopProxy() {
        if (nginx != null) {
            nginx.close();
        }
    }

    private static String hostAndPort(TestRelay relay) {
        return relay.baseUrl().substring("http://".length());
    }

    /** A fleet before the upgrade: the relay migrated everything at start, so go back to the tag. */
    @BeforeAll
    static void schemaBeforeIncremental() throws Exception {
        boolean tagged = RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) > 0 FROM databasechangelog WHERE tag = :tag")
                        .bind("tag", IncrementalSchema.ROLLBACK_TAG)
                        .mapTo(Boolean.class)
                        .one());
        if (tagged) {
            try (Connection connection = DriverManager.getConnection(RELAY.databaseUrl(), TestDatabases.USER, "")) {
                new Liquibase(
                                RELAY.configuration().getChangelog(),
                                new ClassLoaderResourceAccessor(),
                                new JdbcConnection(connection))
                        .rollback(IncrementalSchema.ROLLBACK_TAG, "");
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> everyRunbookRunsInOrder() throws IOException {
        List<Path> runbooks;
        try (Stream<Path> files = Files.list(RUNBOOKS)) {
            runbooks = files.filter(p -> p.getFileName().toString().matches("\\d\\d-.*\\.md"))
                    // Its fleet reads from a standby: StandbyRunbookTest runs it.
                    .filter(p -> !p.getFileName().toString().equals(StandbyRunbookTest.RUNBOOK))
                    .sorted()
                    .toList();
        }
        assertThat(runbooks).hasSizeGreaterThanOrEqualTo(7);
        return runbooks.stream()
                .map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
                    prepare(file.getFileName().toString());
                    RunbookScript runbook = RunbookScript.read(file);
                    assertThat(runbook.blocks()).as(file + " has sh blocks").isNotEmpty();
                    run(runbook);
                }));
    }

    /** Puts the relay in the situation a runbook is written for, where the earlier ones did not. */
    private static void prepare(String runbook) throws Exception {
        if (runbook.startsWith("02-")) {
            // A concurrent build that died half way leaves exactly this behind.
            RELAY.jdbi()
                    .useHandle(
                            h -> h.execute(
                                    "UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'artifact_heads_sync_idx'::regclass"));
        } else if (runbook.startsWith("03-")) {
            // A changeset applied by hand: its effect is there, its ledger row is not.
            String last = IncrementalSchema.CHANGESETS.get(IncrementalSchema.CHANGESETS.size() - 1);
            RELAY.jdbi().useHandle(h -> h.execute("DELETE FROM databasechangelog WHERE id = ?", last));
        } else if (runbook.startsWith("04-")) {
            NostrKeys owner = NostrKeys.generate();
            UUID channel = newId();
            RELAY.client().publish(owner, createChannel(owner, channel, "open"));
            RELAY.client().publish(owner, editChannel(owner, channel, tag(Tags.VISIBILITY, "private")));
            RELAY.jdbi()
                    .useHandle(h -> h.execute(
                            "INSERT INTO sync_statistics "
                                    + "(community_id, minute, instance_id, resets_served, capacity_rejections, timeouts) "
                                    + "SELECT id, ?, 'runbook-instance', 60, 3, 1 FROM communities",
                            Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MINUTES))));
            RELAY.jdbi()
                    .useHandle(h -> h.execute(
                            "INSERT INTO policy_change_refusals "
                                    + "(community_id, minute, instance_id, refused) SELECT id, ?, 'runbook-instance', 12 FROM communities",
                            Timestamp.from(Instant.now().truncatedTo(ChronoUnit.MINUTES))));
        } else if (runbook.startsWith("07-")) {
            // Runbook 06 left the schema at the tag; a fleet that backs up runs the current schema.
            migrateForward();
        }
    }

    /** As an operator would after runbook 06: the relay's own `db migrate`, in a process of its own. */
    private static void migrateForward() throws Exception {
        Map<String, String> env = environment();
        ProcessBuilder migrate = new ProcessBuilder("bash", "-c", "$BUZZ_RELAY_CMD db migrate \"$BUZZ_CONFIG\"")
                .redirectErrorStream(true);
        migrate.environment().putAll(env);
        Process process = migrate.start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as("db migrate: %s", output).isZero();
    }

    @AfterAll
    static void dropRestoredDatabase() {
        RELAY.jdbi()
                .useHandle(h ->
                        h.execute("DROP DATABASE IF EXISTS " + RunbookShell.restoreDatabase(RELAY) + " WITH (FORCE)"));
    }

    private static void run(RunbookScript runbook) throws Exception {
        RunbookShell.run(runbook, environment());
    }

    private static Map<String, String> environment() throws IOException {
        Map<String, String> env = new HashMap<>(RunbookShell.environment(RELAY));
        // The fleet: every instance's admin port, and the proxy as the one public URL.
        env.put("BUZZ_ADMIN_URLS", RELAY.adminUrl() + " " + SECOND.adminUrl());
        env.put("BUZZ_RELAY_URL", nginx.baseUrl());
        return env;
    }
}
