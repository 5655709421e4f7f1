package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator reads: the relay as its own process in local mode, started and stopped the normal
 * way, prints what it serves in a few lines (no route tables, no Jetty start lines) and no stack trace or
 * ERROR line; a second relay on the same data
 * directory stops with one line naming the process that holds it.
 */
@IntegrationTest
class OperatorLogTest {
    /** Logback's level column, a Dropwizard stack trace line ("! ..."), a JVM one ("\tat ..."), "Exception:". */
    private static final Pattern TROUBLE =
            Pattern.compile("^(ERROR\\b.*|! .*|\\s+at .*|.*Exception: .*|.*\\bERROR: .*|.*are different!.*)$");

    @TempDir
    Path directory;

    @Test
    void aNormalStartAndStopIsQuietAndASecondRelayOnTheSameFilesNamesTheFirst() throws Exception {
        Path data = directory.resolve("data");
        Path log = directory.resolve("relay.log");
        long firstPid;
        try (RelayProcess relay = RelayProcess.startLocal(data, log)) {
            firstPid = relay.pid();
            // The summary follows the line RelayProcess waits for.
            await().atMost(Duration.ofMinutes(1))
                    .until(() -> Files.readString(log).contains("Relay instance "));
            String started = Files.readString(log);
            assertThat(started)
                    .contains("Embedded PostgreSQL listening on 127.0.0.1:")
                    .contains("Relay public key ")
                    .containsPattern(
                            "Relay instance \\S+ serving on port \\d+ \\(admin \\d+\\), database jdbc:postgresql://"
                                    + "\\S+, gates: artifacts.incremental off, artifacts.sync off")
                    .doesNotContain("Running Changeset")
                    .doesNotContain("UPDATE SUMMARY")
                    .doesNotContain("initdb")
                    .doesNotContain("The following paths were found")
                    .doesNotContain("tasks = ")
                    .doesNotContain("jetty-");
            assertThat(started.lines().toList())
                    .as("the lines of a normal start, up to the summary")
                    .hasSizeLessThanOrEqualTo(15);
            assertThat(trouble(started)).as("start").isEmpty();

            Path secondLog = directory.resolve("second.log");
            assertThat(RelayProcess.runLocalUntilExit(data, secondLog)).isNotZero();
            String second = Files.readString(secondLog);
            assertThat(second)
                    .contains("another relay is already running on the local database in "
                            + data.resolve("postgres").toAbsolutePath().normalize() + " (process " + firstPid + ")");
            assertThat(second).doesNotContain("epg-lock");
            assertThat(trouble(second))
                    .as("the refusal is the one line that names the holder, without a trace")
                    .hasSizeLessThanOrEqualTo(1)
                    .allMatch(line -> line.contains("another relay is already running"));

            assertThat(relay.stop()).as("exit code after SIGTERM").isIn(0, 143);
        }
        String all = Files.readString(log);
        assertThat(trouble(all)).as("start and stop").isEmpty();
        assertThat(all).doesNotContain("Could not remove this instance from the fleet view");
    }

    private static List<String> trouble(String log) {
        return log.lines().filter(line -> TROUBLE.matcher(line).matches()).toList();
    }
}
