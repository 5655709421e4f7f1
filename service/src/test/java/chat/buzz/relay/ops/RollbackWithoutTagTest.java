package chat.buzz.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.AdminClient.Reply;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A schema that never reached the before-incremental tag: rollback refuses and leaves everything as it was. */
@IntegrationTest
class RollbackWithoutTagTest {
    @RegisterExtension
    static final TestRelay RELAY =
            TestRelay.create(ConfigOverride.config("changelog", "rehearsal/without-incremental.xml"));

    private final AdminClient olivia = new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA);

    @Test
    void confirmedRollbackWithoutTheTagIsRefusedAndTheGateStaysAsItWas() {
        olivia.post(
                "/api/flags",
                Map.of("gate", "incremental", "value", "on", "reason", "forced for the test", "force", true));
        Reply refused = olivia.task("rollback-incremental", Map.of("confirm", "yes", "reason", "panic"));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().get("error").asText()).isEqualTo("rollback_tag_missing");
        assertThat(olivia.task("rollback-incremental", Map.of("dry-run", "true", "reason", "look"))
                        .status())
                .isEqualTo(409);
        assertThat(olivia.get("/api/flags")
                        .json()
                        .get("flags")
                        .get(0)
                        .get("effective")
                        .asBoolean())
                .isTrue();

        // Turning the gate off needs no tag.
        Reply gateOnly = olivia.task("rollback-incremental", Map.of("reason", "panic, gate only"));
        assertThat(gateOnly.status()).isEqualTo(200);
        assertThat(gateOnly.json().get("tagPresent").asBoolean()).isFalse();
        assertThat(olivia.get("/api/flags")
                        .json()
                        .get("flags")
                        .get(0)
                        .get("effective")
                        .asBoolean())
                .isFalse();
    }
}
