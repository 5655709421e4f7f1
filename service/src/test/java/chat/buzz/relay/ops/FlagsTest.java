package chat.buzz.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.incremental.ExpectedIndex;
import chat.buzz.relay.incremental.IncrementalSchema;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.AdminClient.Reply;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@IntegrationTest
public class FlagsTest {
    @RegisterExtension
    static final TestRelay A = TestRelay.create();

    @RegisterExtension
    static final TestRelay B = TestRelay.anotherInstance(A);

    private final AdminClient olivia = new AdminClient(A.adminUrl(), AdminClient.OLIVIA);
    private final AdminClient omarOnB = new AdminClient(B.adminUrl(), AdminClient.OMAR);

    @BeforeEach
    @AfterEach
    void clearOverridesAndUnprepareTheSchema() {
        for (String gate : List.of("incremental", "sync")) {
            assertThat(olivia.post("/api/flags", Map.of("gate", gate, "value", "clear", "reason", "test cleanup"))
                            .status())
                    .isEqualTo(200);
        }
        A.jdbi().useHandle(FlagsTest::unprepareIncrementalSchema);
    }

    /** Whatever the changelog holds (the real 0076-0078 once merged), the tests start with them unmet. */
    public static void unprepareIncrementalSchema(Handle h) {
        for (ExpectedIndex index : IncrementalSchema.INDEXES) {
            h.execute("DROP INDEX IF EXISTS " + index.name());
        }
        for (String id : IncrementalSchema.CHANGESETS) {
            h.execute(
                    "DELETE FROM databasechangelog WHERE id = ? AND author = ?",
                    id,
                    IncrementalSchema.CHANGESET_AUTHOR);
        }
    }

    @Test
    void anOverrideOnOneInstanceReachesTheOtherAndClearingReturnsToTheDefault() {
        assertThat(effective(omarOnB, "sync")).isFalse();

        Reply flip = olivia.post("/api/flags", Map.of("gate", "sync", "value", "on", "reason", "canary for sync"));
        assertThat(flip.status()).isEqualTo(200);
        assertThat(flip.json().get("newValue").asBoolean()).isTrue();

        await().atMost(Duration.ofSeconds(10)).until(() -> effective(omarOnB, "sync"));
        await().atMost(Duration.ofSeconds(10)).until(() -> capabilities(B).contains("artifacts.sync"));

        assertThat(omarOnB.post("/api/flags", Map.of("gate", "sync", "value", "clear", "reason", "canary over"))
                        .status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> !effective(olivia, "sync"));
        assertThat(flag(olivia, "sync").get("override").isNull()).isTrue();
    }

    @Test
    void historyKeepsWhoWhenWhyAndBothValues() {
        olivia.post("/api/flags", Map.of("gate", "sync", "value", "on", "reason", "first try"));
        omarOnB.task("flag", Map.of("gate", "sync", "value", "off", "reason", "rolling back the try"));

        JsonNode history = olivia.get("/api/flags/history?gate=sync").json();
        assertThat(history.get(0).get("operator").asText()).isEqualTo("omar-oncall");
        assertThat(history.get(0).get("reason").asText()).isEqualTo("rolling back the try");
        assertThat(history.get(0).get("oldValue").asBoolean()).isTrue();
        assertThat(history.get(0).get("newValue").asBoolean()).isFalse();
        assertThat(history.get(1).get("operator").asText()).isEqualTo("olivia-oncall");
        assertThat(history.get(1).get("action").asText()).isEqualTo("on");
        assertThat(history.get(1).get("changedAt").asText()).isNotBlank();

        // The table itself refuses rewrites of the evidence.
        Integer rows = A.jdbi().withHandle(h -> {
            try {
                return h.execute("UPDATE feature_flag_history SET reason = 'nothing happened'");
            } catch (RuntimeException e) {
                return -1;
            }
        });
        assertThat(rows).isEqualTo(-1);
    }

    @Test
    void aReasonIsRequiredAndBadInputIsA400() {
        Reply noReason = olivia.post("/api/flags", Map.of("gate", "sync", "value", "on", "reason", "  "));
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.json().get("error").asText()).isEqualTo("reason_required");
        assertThat(olivia.task("flag", Map.of("gate", "sync", "value", "on")).status())
                .isEqualTo(400);
        assertThat(olivia.post("/api/flags", Map.of("gate", "warp", "value", "on", "reason", "x"))
                        .json()
                        .get("error")
                        .asText())
                .isEqualTo("unknown_gate");
        assertThat(olivia.post("/api/flags", Map.of("gate", "sync", "value", "maybe", "reason", "x"))
                        .status())
                .isEqualTo(400);
        assertThat(olivia.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(A.adminUrl() + "/api/flags"))
                                .header("Authorization", "Bearer " + AdminClient.OLIVIA)
                                .header("X-Buzz-Operator", "1")
                                .header("Content-Type", "application/json")
                                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{not json")))
                        .status())
                .isEqualTo(400);
        Reply badSwitch =
                olivia.post("/api/flags", Map.of("gate", "sync", "value", "on", "reason", "x", "force", "maybe"));
        assertThat(badSwitch.status()).as(badSwitch.body()).isEqualTo(400);
        assertThat(badSwitch.json().get("error").asText()).isEqualTo("invalid_force");
        assertThat(badSwitch.json().get("message").asText()).isEqualTo("force must be true or false");
        Reply nul = olivia.post("/api/flags", Map.of("gate", "sync", "value", "on", "reason", "a\u0000b"));
        assertThat(nul.status()).as(nul.body()).isEqualTo(400);
        assertThat(nul.json().get("error").asText()).isEqualTo("nul_character");
        assertThat(olivia.task("flag", Map.of("gate", "sync", "value", "on", "reason", "a\u0000b"))
                        .status())
                .isEqualTo(400);
        assertThat(effective(olivia, "sync")).isFalse();
    }

    @Test
    void incrementalIsRefusedWithWhatIsMissingUnlessForced() {
        Reply refused = olivia.post("/api/flags", Map.of("gate", "incremental", "value", "on", "reason", "go live"));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().get("error").asText()).isEqualTo("preconditions_unmet");
        List<String> missing = texts(refused.json().get("missing"));
        assertThat(missing).anyMatch(m -> m.contains("0076-add-artifact-modified-at"));
        assertThat(missing).anyMatch(m -> m.contains("artifact_heads_sync_idx is missing"));
        assertThat(effective(olivia, "incremental")).isFalse();

        Reply forced = olivia.post(
                "/api/flags",
                Map.of(
                        "gate",
                        "incremental",
                        "value",
                        "on",
                        "reason",
                        "indexes built by hand, ledger fixed tomorrow",
                        "force",
                        "yes")); // as an operator's curl may send it; the console sends true
        assertThat(forced.status()).isEqualTo(200);
        assertThat(forced.json().get("forced").asBoolean()).isTrue();
        assertThat(texts(forced.json().get("unmet"))).containsAll(missing);
        await().atMost(Duration.ofSeconds(10)).until(() -> effective(omarOnB, "incremental"));
        await().atMost(Duration.ofSeconds(10)).until(() -> capabilities(B).contains("artifacts.incremental"));
    }

    @Test
    void incrementalGoesOnWithoutForceOnceTheSchemaIsReady() {
        A.jdbi().useHandle(h -> {
            prepareIncrementalSchema(h);
            h.execute("CREATE INDEX artifact_heads_channel_sync_idx ON artifact_heads (channel_id, d)");
        });
        Reply wrongDefinition = olivia.post("/api/flags", Map.of("gate", "incremental", "value", "on", "reason", "go"));
        assertThat(wrongDefinition.status()).isEqualTo(409);
        assertThat(texts(wrongDefinition.json().get("missing")))
                .containsExactly(
                        "index artifact_heads_channel_sync_idx differs from the expected definition: "
                                + "CREATE INDEX artifact_heads_channel_sync_idx ON public.artifact_heads USING btree (channel_id, d)");

        A.jdbi().useHandle(h -> {
            h.execute("DROP INDEX artifact_heads_channel_sync_idx");
            h.execute(IncrementalSchema.INDEXES.get(1).prebuildStatement());
        });
        Reply on = olivia.post("/api/flags", Map.of("gate", "incremental", "value", "on", "reason", "schema ready"));
        assertThat(on.status()).isEqualTo(200);
        assertThat(on.json().get("forced").asBoolean()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> effective(omarOnB, "incremental"));
    }

    /**
     * Stands in for migrations 0076-0078 (they arrive with the incremental sync branch): the ledger rows
     * and the exact indexes the precondition check looks for, added with plain SQL.
     */
    public static void prepareIncrementalSchema(Handle h) {
        h.execute("ALTER TABLE artifact_heads ADD COLUMN IF NOT EXISTS modified_at timestamptz");
        h.execute("ALTER TABLE artifact_revisions ADD COLUMN IF NOT EXISTS modified_at timestamptz");
        h.execute("ALTER TABLE channel_members ADD COLUMN IF NOT EXISTS sync_modified_at timestamptz");
        int order = 1000;
        for (String id : IncrementalSchema.CHANGESETS) {
            h.execute(
                    "INSERT INTO databasechangelog (id, author, filename, dateexecuted, orderexecuted, exectype) "
                            + "VALUES (?, ?, 'test-setup', now(), ?, 'EXECUTED')",
                    id,
                    IncrementalSchema.CHANGESET_AUTHOR,
                    order++);
        }
        for (int i = 0; i < IncrementalSchema.INDEXES.size(); i++) {
            if (i != 1) {
                h.execute(IncrementalSchema.INDEXES.get(i).prebuildStatement());
            }
        }
    }

    private static JsonNode flag(AdminClient client, String gate) {
        for (JsonNode flag : client.get("/api/flags").json().get("flags")) {
            if (flag.get("gate").asText().equals(gate)) {
                return flag;
            }
        }
        throw new AssertionError("no flag " + gate);
    }

    private static boolean effective(AdminClient client, String gate) {
        return flag(client, gate).get("effective").asBoolean();
    }

    private static List<String> capabilities(TestRelay relay) {
        JsonNode info = relay.client()
                .send(relay.client()
                        .request("/")
                        .header("Accept", "application/nostr+json")
                        .GET())
                .json();
        return texts(info.get("capabilities"));
    }

    static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asText()));
        return texts;
    }
}
