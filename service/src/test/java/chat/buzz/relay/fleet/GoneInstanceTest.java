package chat.buzz.relay.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayProcess;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A process killed with SIGKILL leaves no database session behind: it shows as gone at once (long before
 * it would go stale, let alone be forgotten), counts for no confirmation, and an operator can forget it;
 * an instance that still holds sessions cannot be forgotten.
 */
@IntegrationTest
class GoneInstanceTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** Slow heartbeats: a killed instance would take 30 s to go stale, so "gone" must come from its sessions. */
    private static final Map<String, String> FLEET =
            Map.of("admin.heartbeat", "10s", "admin.flagRefresh", "200ms", "admin.gateConfirmationBound", "20s");

    @RegisterExtension
    static final TestRelay FIRST = TestRelay.create(FLEET);

    private static RelayProcess second;
    private static String secondId;

    @BeforeAll
    static void startThenKillASecondProcess() throws Exception {
        Path log = Files.createTempFile("gone-instance", ".log");
        second = RelayProcess.start(FIRST.databaseUrl(), log, Map.of(), FLEET);
        List<JsonNode> both = await().atMost(PATIENCE).until(() -> FIRST.admin().instances(), all -> all.size() == 2);
        JsonNode other = both.stream()
                .filter(i -> !i.get("self").asBoolean())
                .findFirst()
                .orElseThrow();
        assertThat(other.get("gone").asBoolean())
                .as("a live process holds sessions")
                .isFalse();
        secondId = AdminClient.instanceId(other);
        second.kill();
    }

    @AfterAll
    static void stopSecondProcess() throws Exception {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void aKilledInstanceIsGoneAtOnceBlocksNoFlipAndCanBeForgotten() {
        JsonNode gone = await().atMost(PATIENCE)
                .until(
                        () -> FIRST.admin().instance(secondId),
                        i -> i.isPresent() && i.get().get("gone").asBoolean())
                .orElseThrow();
        assertThat(gone.get("stale").asBoolean())
                .as("gone before it missed three beats")
                .isFalse();

        long started = System.nanoTime();
        AdminClient.Reply flip = FIRST.admin()
                .post("/api/flags", Map.of("gate", "sync", "value", "off", "reason", "the other instance was killed"));
        double waited = (System.nanoTime() - started) / 1e9;
        assertThat(flip.status()).as(flip.body()).isEqualTo(200);
        JsonNode confirmation = flip.json().get("confirmation");
        assertThat(confirmation.get("everyInstanceConfirmed").asBoolean())
                .as(flip.body())
                .isTrue();
        assertThat(confirmation.get("instances")).anySatisfy(i -> {
            assertThat(i.get("instanceId").asText()).isEqualTo(secondId);
            assertThat(i.get("gone").asBoolean()).isTrue();
            assertThat(i.get("confirmed").asBoolean()).isFalse();
        });
        assertThat(waited).as("the flip did not wait out its 20 s bound").isLessThan(20);

        AdminClient.Reply self = FIRST.admin()
                .forgetInstance(
                        FIRST.admin().instances().stream()
                                .filter(i -> i.get("self").asBoolean())
                                .map(AdminClient::instanceId)
                                .findFirst()
                                .orElseThrow(),
                        "tidy the fleet view");
        assertThat(self.status()).as(self.body()).isEqualTo(409);
        assertThat(self.json().get("error").asText()).isEqualTo("instance_not_gone");

        AdminClient.Reply unknown = FIRST.admin().forgetInstance("no-such-instance", "tidy the fleet view");
        assertThat(unknown.status()).as(unknown.body()).isEqualTo(404);
        assertThat(unknown.json().get("error").asText()).isEqualTo("unknown_instance");

        AdminClient.Reply noReason = FIRST.admin().post("/api/instances/forget", Map.of("instanceId", secondId));
        assertThat(noReason.status()).as(noReason.body()).isEqualTo(400);

        AdminClient.Reply forgotten = FIRST.admin()
                .task("forget-instance", Map.of("instance", secondId, "reason", "killed, will not come back"));
        assertThat(forgotten.status()).as(forgotten.body()).isEqualTo(200);
        assertThat(forgotten.json().get("outcome").asText()).isEqualTo("forgotten");
        assertThat(FIRST.admin().instance(secondId)).isEmpty();
        int audited = FIRST.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM operator_audit WHERE action = 'forget-instance' "
                                + "AND subject = :id AND outcome = 'forgotten'")
                        .bind("id", secondId)
                        .mapTo(Integer.class)
                        .one());
        assertThat(audited).isEqualTo(1);
    }
}
