package chat.buzz.relay.runbooks;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.StreamingStandby;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runbook 09's sh blocks, verbatim and in order, against two instances that read from a streaming standby
 * of their database, the way an operator would follow it once the standby is configured.
 */
@IntegrationTest
class StandbyRunbookTest {
    static final String RUNBOOK = "09-read-standbys.md";
    private static final StreamingStandby STANDBY = StreamingStandby.shared();
    private static final ConfigOverride LAG_BOUND = ConfigOverride.config("database.replicaMaxLag", "10s");

    @Order(1)
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(LAG_BOUND).readingFrom(STANDBY);

    @Order(2)
    @RegisterExtension
    static final TestRelay SECOND = TestRelay.anotherInstance(RELAY).readingFrom(STANDBY);

    @Test
    void runbookNineRunsAsWritten() throws Exception {
        // The first samples come within a second of the start; the runbook checks every standby serves.
        STANDBY.awaitCaughtUpWith(RELAY.databaseUrl(), Duration.ofSeconds(30));
        Map<String, String> env = new HashMap<>(RunbookShell.environment(RELAY));
        env.put("BUZZ_ADMIN_URLS", RELAY.adminUrl() + " " + SECOND.adminUrl());
        URI standby = URI.create(STANDBY.urlOf(RELAY.databaseUrl()).substring("jdbc:".length()));
        env.put("BUZZ_STANDBY_PGHOST", standby.getHost());
        env.put("BUZZ_STANDBY_PGPORT", String.valueOf(standby.getPort()));
        org.awaitility.Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> RELAY.standbysServing(serving -> serving.allMatch(Boolean::booleanValue)));
        RunbookShell.run(RunbookScript.read(Path.of("..", "runbooks", RUNBOOK)), env);
    }
}
