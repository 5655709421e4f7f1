package chat.buzz.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.AdminClient.Reply;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/**
 * Dropwizard's own admin actions (gc, log-level, pprof) are audited like the relay's tasks, naming the
 * operator and what was asked, and each audited action is one log line naming the operator;
 * record-migration will not record a changeset without a reason.
 */
@IntegrationTest
class OperatorAuditTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private final AdminClient olivia = new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA);
    private final AdminClient omar = new AdminClient(RELAY.adminUrl(), AdminClient.OMAR);

    @Test
    void dropwizardsOwnTasksAndProfilesAreAudited() {
        assertThat(olivia.task("gc", Map.of()).status()).isEqualTo(200);
        assertThat(omar.task("log-level", Map.of("logger", "chat.buzz.relay.sync", "level", "INFO"))
                        .status())
                .isEqualTo(200);
        assertThat(olivia.get("/pprof?duration=1").status()).isEqualTo(200);

        JsonNode gc = entry("gc");
        assertThat(gc.get("operator").asText()).isEqualTo("olivia-oncall");
        assertThat(gc.get("outcome").asText()).isEqualTo("200");
        assertThat(gc.get("happenedAt").asText()).isNotBlank();
        JsonNode logLevel = entry("log-level");
        assertThat(logLevel.get("operator").asText()).isEqualTo("omar-oncall");
        assertThat(logLevel.get("detail").asText()).contains("chat.buzz.relay.sync", "INFO");
        JsonNode pprof = entry("pprof");
        assertThat(pprof.get("operator").asText()).isEqualTo("olivia-oncall");
        assertThat(pprof.get("detail").asText()).contains("duration=[1]");
    }

    @Test
    void recordMigrationRefusesAMissingOrBlankReason() {
        int before = auditTrail().size();
        for (Map<String, String> parameters :
                List.of(Map.of("id", "before-incremental"), Map.of("id", "before-incremental", "reason", "  "))) {
            Reply refused = olivia.task("record-migration", parameters);
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            assertThat(refused.json().get("error").asText()).isEqualTo("reason_required");
            assertThat(refused.json().get("message").asText()).isNotBlank();
        }
        assertThat(auditTrail()).hasSize(before);
    }

    @Test
    void everyAuditedActionIsOneLogLineNamingTheOperator() {
        Logger audit = (Logger) LoggerFactory.getLogger(MigrationLedger.AUDIT_LOGGER);
        Level level = audit.getLevel();
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        audit.addAppender(lines);
        audit.setLevel(Level.INFO);
        try {
            assertThat(omar.task("gc", Map.of()).status()).isEqualTo(200);
            Reply refused = olivia.task(
                    "record-migration", Map.of("id", "no-such-changeset", "reason", "ticket 12\nsecond line"));
            assertThat(refused.status()).as(refused.body()).isEqualTo(404);

            List<String> logged =
                    lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
            assertThat(logged)
                    .as("one line per action, in order")
                    .containsExactly(
                            "Operator omar-oncall gc POST /tasks/gc: 200 ({})",
                            "Operator olivia-oncall record-migration no-such-changeset: refused: unknown_changeset"
                                    + " ( / ticket 12 second line)");
            assertThat(lines.list).allMatch(line -> line.getLevel() == Level.INFO);
        } finally {
            audit.detachAppender(lines);
            audit.setLevel(level);
        }
    }

    private JsonNode entry(String action) {
        return auditTrail().stream()
                .filter(row -> row.get("action").asText().equals(action))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no audit entry for " + action + " in " + auditTrail()));
    }

    private List<JsonNode> auditTrail() {
        JsonNode body = olivia.get("/api/audit").json();
        List<JsonNode> rows = new ArrayList<>();
        (body.isArray() ? body : body.path("entries")).forEach(rows::add);
        return rows;
    }
}
