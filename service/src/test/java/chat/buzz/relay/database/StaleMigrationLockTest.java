package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import io.dropwizard.db.DataSourceFactory;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A migrator SIGKILLed while holding Liquibase's lock does not stop the next one; a live one is waited for. */
@IntegrationTest
class StaleMigrationLockTest {
    private String url;
    private Process holder;

    @BeforeEach
    void freshDatabase() {
        url = TestDatabases.fresh();
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (holder != null) {
            holder.destroyForcibly().waitFor();
        }
        TestDatabases.drop(url);
    }

    @Test
    void theLockOfAKilledMigratorIsReleasedByTheNextMigration() throws Exception {
        holder = startHolder();
        assertThat(rowLocked()).isTrue();

        holder.destroyForcibly().waitFor();
        Database.migrate(dataSource(), Database.CHANGELOG);

        assertThat(rowLocked()).isFalse();
        int applied = jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM databasechangelog")
                .mapTo(Integer.class)
                .one());
        assertThat(applied).isPositive();
    }

    @Test
    void aLiveMigratorIsWaitedForUntilItsSessionEnds() throws Exception {
        holder = startHolder();
        CompletableFuture<Void> migration = CompletableFuture.runAsync(() -> {
            try {
                Database.migrate(dataSource(), Database.CHANGELOG);
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });

        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(() -> !migration.isDone() && rowLocked());
        holder.destroyForcibly().waitFor();

        await().atMost(Duration.ofSeconds(60)).until(migration::isDone);
        migration.join();
        assertThat(rowLocked()).isFalse();
    }

    private Process startHolder() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(
                        java, "-cp", System.getProperty("java.class.path"), MigrationLockHolder.class.getName(), url)
                .redirectErrorStream(true)
                .start();
        BufferedReader output =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.contains(MigrationLockHolder.LOCKED)) {
                return process;
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("the lock holder exited without the lock:\n" + seen);
    }

    private boolean rowLocked() {
        return jdbi().withHandle(h -> h.createQuery("SELECT locked FROM databasechangeloglock WHERE id = 1")
                .mapTo(Boolean.class)
                .one());
    }

    private Jdbi jdbi() {
        return Jdbi.create(url, TestDatabases.USER, "");
    }

    private DataSourceFactory dataSource() {
        return TestDatabases.settings(url);
    }
}
