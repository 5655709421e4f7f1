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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Confirmed propagation against a real second process: a gate flip waits for every instance's heartbeat
 * to apply the new value and says so per instance; with that process frozen by SIGSTOP the flip reports
 * it unconfirmed and the schema rollback refuses until forced, which the audit records.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@IntegrationTest
class FrozenInstanceTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final Map<String, String> FAST_FLEET =
            Map.of("admin.heartbeat", "200ms", "admin.flagRefresh", "200ms", "admin.gateConfirmationBound", "4s");

    @RegisterExtension
    static final TestRelay FIRST = TestRelay.create(FAST_FLEET);

    private static RelayProcess second;
    private static String secondId;

    @BeforeAll
    static void startSecondProcess() throws Exception {
        Path log = Files.createTempFile("frozen-instance", ".log");
        second = RelayProcess.start(FIRST.databaseUrl(), log, Map.of(), FAST_FLEET);
        List<JsonNode> both = await().atMost(PATIENCE)
                .until(
                        () -> FIRST.admin().instances(),
                        all -> all.size() == 2
                                && all.stream().noneMatch(i -> i.get("stale").asBoolean()));
        secondId = both.stream()
                .filter(i -> !i.get("self").asBoolean())
                .map(AdminClient::instanceId)
                .findFirst()
                .orElseThrow();
    }

    @AfterAll
    static void stopSecondProcess() throws Exception {
        if (second != null) {
            second.close();
        }
    }

    @Test
    @Order(1)
    void aFlipWaitsUntilEveryInstanceConfirmsAndReportsEach() {
        AdminClient.Reply flip = FIRST.admin()
                .post(
                        "/api/flags",
                        Map.of("gate", "incremental", "value", "on", "reason", "confirmed flip test", "force", true));

        assertThat(flip.status()).as(flip.body()).isEqualTo(200);
        assertThat(flip.json().get("newValue").asBoolean())
                .as("the history entry stays at the top level")
                .isTrue();
        JsonNode confirmation = flip.json().get("confirmation");
        assertThat(confirmation.get("everyInstanceConfirmed").asBoolean())
                .as(flip.body())
                .isTrue();
        assertThat(confirmation.get("instances"))
                .hasSize(2)
                .allMatch(i -> i.get("confirmed").asBoolean()
                        && i.get("secondsAfterFlip").isNumber()
                        && !i.get("build").asText().isBlank());
        assertThat(confirmation.get("secondsToLastConfirmation").isNumber()).isTrue();
    }

    @Test
    @Order(2)
    void aFrozenInstanceLeavesTheFlipUnconfirmedAndTheRollbackRefusesUntilForced() throws Exception {
        second.freeze();
        try {
            AdminClient.Reply flip = FIRST.admin()
                    .task("flag", Map.of("gate", "incremental", "value", "off", "reason", "one instance is frozen"));
            assertThat(flip.status()).as(flip.body()).isEqualTo(200);
            JsonNode confirmation = flip.json().get("confirmation");
            assertThat(confirmation.get("everyInstanceConfirmed").asBoolean())
                    .as(flip.body())
                    .isFalse();
            assertThat(confirmation.get("instances"))
                    .anyMatch(i -> AdminClient.instanceId(i).equals(secondId)
                            && !i.get("confirmed").asBoolean())
                    .anyMatch(i -> !AdminClient.instanceId(i).equals(secondId)
                            && i.get("confirmed").asBoolean());

            AdminClient.Reply refused =
                    FIRST.admin().task("rollback-incremental", Map.of("confirm", "yes", "reason", "frozen instance"));
            assertThat(refused.status()).as(refused.body()).isEqualTo(409);
            assertThat(refused.json().get("error").asText()).isEqualTo("instances_unconfirmed");
            assertThat(refused.body()).contains(secondId);
            assertThat(tagApplied()).as("the schema was left alone").isTrue();

            assertThat(FIRST.admin().instances())
                    .as("a frozen process keeps its database sessions: stale, not gone")
                    .anyMatch(i -> AdminClient.instanceId(i).equals(secondId)
                            && i.get("stale").asBoolean()
                            && !i.get("gone").asBoolean());
            AdminClient.Reply forget = FIRST.admin().forgetInstance(secondId, "looks dead");
            assertThat(forget.status()).as(forget.body()).isEqualTo(409);
            assertThat(forget.json().get("error").asText()).isEqualTo("instance_not_gone");

            AdminClient.Reply forced = FIRST.admin()
                    .task(
                            "rollback-incremental",
                            Map.of("confirm", "yes", "force", "yes", "reason", "frozen instance is being replaced"));
            assertThat(forced.status()).as(forced.body()).isEqualTo(200);
            assertThat(forced.json().get("schemaRolledBack").asBoolean()).isTrue();
            assertThat(tagApplied()).isFalse();
            assertThat(audit())
                    .contains("refused: instances did not confirm the gate off")
                    .contains("forced past unconfirmed: " + secondId);
        } finally {
            second.thaw();
        }
    }

    private static boolean tagApplied() {
        return FIRST.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT count(*) > 0 FROM databasechangelog WHERE tag = 'before-incremental'")
                        .mapTo(Boolean.class)
                        .one());
    }

    private static String audit() {
        return FIRST.jdbi()
                .withHandle(h -> h.createQuery("""
                SELECT string_agg(outcome || ' ' || detail, '; ')
                FROM operator_audit
                WHERE action = 'rollback-incremental'
                """).mapTo(String.class).one());
    }
}
