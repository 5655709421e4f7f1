package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.runbooks.RunbookScript;
import chat.buzz.relay.runbooks.RunbookShell;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runbook 07 end to end: a pg_dump backup, writes after it that a client syncs, a pg_restore into a
 * new database with the epoch renewed, and a relay on the restored database. The client's cursor was
 * taken after the backup point; its next session must reset and leave it holding the restored state.
 */
@IntegrationTest
class RestoreFromBackupTest {
    private static final ConfigOverride[] GATES = {ConfigOverride.config("gates.incremental", "true")};

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(GATES);

    private static final RunbookScript RUNBOOK = read();
    private static final int BACKUP_BLOCKS_END = 2;
    private static final int RESTORE_BLOCK = 2;
    private static final int RENEW_BLOCK = 3;

    private final Writer writer = new Writer(RELAY.client());
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();
    private Map<String, String> environment;
    private TestRelay restored;

    @AfterEach
    void dropTheRestore() throws Exception {
        if (restored != null) {
            restored.stop();
        }
        RELAY.jdbi()
                .useHandle(h ->
                        h.execute("DROP DATABASE IF EXISTS " + RunbookShell.restoreDatabase(RELAY) + " WITH (FORCE)"));
        if (environment != null) {
            try (Stream<Path> files = Files.walk(Path.of(environment.get("BUZZ_BACKUP_DIR")))) {
                files.sorted(Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void aClientSyncedAfterTheBackupPointConvergesToTheRestoredState() throws Exception {
        UUID channel = writer.channel(owner, "open");
        UUID edited = writer.create(owner, channel);
        UUID deleted = writer.create(owner, channel);
        UUID untouched = writer.create(owner, channel);
        SyncingClient client = new SyncingClient(RELAY.client(), reader, List.of());
        // Introducing the epoch resets no one: a database never restored is in the first epoch.
        assertThat(epoch(RELAY.databaseUrl())).isZero();
        client.inspector = body -> assertThat(body.get("policy").asText()).doesNotContain(".");
        client.session();
        client.inspector = body -> {};

        environment = RunbookShell.environment(RELAY);
        RunbookShell.run(RUNBOOK.blocks(0, BACKUP_BLOCKS_END), environment);
        Map<String, String> atBackup = heads(edited, deleted, untouched);

        writer.edit(owner, edited, "after the backup");
        writer.delete(owner, deleted);
        UUID created = writer.create(owner, channel);
        client.session();
        assertThat(client.heads())
                .as("the client followed the writes after the backup")
                .containsKeys(edited.toString(), created.toString())
                .doesNotContainKey(deleted.toString());

        RunbookShell.run(RUNBOOK.blocks(RESTORE_BLOCK, RESTORE_BLOCK + 1), environment);
        String restoredUrl = TestDatabases.withDatabase(RELAY.databaseUrl(), RunbookShell.restoreDatabase(RELAY));
        long epochOfTheCopy = epoch(restoredUrl);
        assertThat(epochOfTheCopy)
                .as("a restore into a new database is another epoch by itself")
                .isNotZero();
        RunbookShell.run(RUNBOOK.blocks(RENEW_BLOCK, RENEW_BLOCK + 1), environment);
        assertThat(epoch(restoredUrl)).as("renewed").isNotZero().isNotEqualTo(epochOfTheCopy);

        restored = TestRelay.onDatabase(restoredUrl, GATES);
        restored.start();
        SyncingClient afterRestore = new SyncingClient(restored.client(), reader, List.of());
        afterRestore.store.putAll(client.store);
        afterRestore.cursor = client.cursor;
        afterRestore.session();

        assertThat(afterRestore.resets)
                .as("the cursor from after the backup point is reset")
                .isEqualTo(1);
        assertThat(afterRestore.heads()).isEqualTo(atBackup);
        SyncingClient fresh = new SyncingClient(restored.client(), reader, List.of());
        fresh.session();
        assertThat(afterRestore.heads())
                .as("the same as a client starting from nothing")
                .isEqualTo(fresh.heads());

        assertThat(afterRestore.session())
                .as("once reset, the next session has nothing new")
                .isEmpty();
        assertThat(afterRestore.resets).isEqualTo(1);
    }

    private Map<String, String> heads(UUID... artifacts) {
        Map<String, String> heads = new HashMap<>();
        for (UUID d : artifacts) {
            heads.put(d.toString(), writer.heads.get(d));
        }
        return heads;
    }

    private static long epoch(String databaseUrl) {
        return Jdbi.create(databaseUrl, TestDatabases.USER, "")
                .withHandle(h -> h.createQuery("SELECT database_epoch()")
                        .mapTo(Long.class)
                        .one());
    }

    private static RunbookScript read() {
        try {
            RunbookScript runbook = RunbookScript.read(Path.of("..", "runbooks", "07-backup-and-restore.md"));
            assertThat(runbook.blocks().get(1)).contains("pg_dump");
            assertThat(runbook.blocks().get(RESTORE_BLOCK)).contains("pg_restore");
            assertThat(runbook.blocks().get(RENEW_BLOCK)).contains("renew_database_epoch");
            return runbook;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
