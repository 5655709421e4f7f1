package chat.buzz.relay.ops;

import static chat.buzz.relay.ops.FlagsTest.texts;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.incremental.IncrementalSchema;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.AdminClient.Reply;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import liquibase.Liquibase;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Ledger, record and rollback against a rehearsal changelog that holds the tag and one 0078 index. */
@IntegrationTest
class LedgerAndRollbackTest {
    private static final String CHANGELOG = "rehearsal/incremental-rehearsal.xml";
    private static final String INDEX_CHANGESET = "0078-create-artifact-heads-sync-index";

    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("changelog", CHANGELOG));

    private final AdminClient olivia = new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA);

    @Test
    void rollBackRecordByHandAndMigrateForwardAgain() throws Exception {
        JsonNode before = olivia.get("/api/migrations").json();
        assertThat(ids(before.get("ledger"))).contains("rehearsal-tag-before-incremental", INDEX_CHANGESET);
        assertThat(before.get("rollbackTagPresent").asBoolean()).isTrue();
        assertThat(before.get("pending")).isEmpty();
        assertThat(indexExists()).isTrue();

        // A dry run shows the SQL and changes nothing, not even the gate.
        olivia.post("/api/flags", Map.of("gate", "incremental", "value", "on", "reason", "rehearsal", "force", true));
        Reply dryRun = olivia.task("rollback-incremental", Map.of("dry-run", "true", "reason", "practice"));
        assertThat(dryRun.status()).isEqualTo(200);
        String sql = dryRun.json().get("sql").asText();
        assertThat(sql)
                .contains("DROP INDEX CONCURRENTLY IF EXISTS artifact_heads_sync_idx")
                .contains("-- Rolling Back ChangeSet:")
                .contains(INDEX_CHANGESET)
                .startsWith("-- Liquibase takes its lock (databasechangeloglock) first");
        // Liquibase's own lock and ledger statements read like changes to make; they are left out.
        assertThat(sql.toUpperCase(java.util.Locale.ROOT))
                .doesNotContain("SET LOCKED")
                .doesNotContain("DELETE FROM PUBLIC.DATABASECHANGELOG")
                .doesNotContain("DELETE FROM DATABASECHANGELOG");
        assertThat(indexExists()).isTrue();
        assertThat(ids(olivia.get("/api/migrations").json().get("ledger"))).contains(INDEX_CHANGESET);
        assertThat(effectiveIncremental()).isTrue();

        // Without confirm only the gate goes off.
        Reply gateOnly = olivia.task("rollback-incremental", Map.of("reason", "bad deploy"));
        assertThat(gateOnly.status()).isEqualTo(200);
        assertThat(gateOnly.json().get("schemaRolledBack").asBoolean()).isFalse();
        assertThat(effectiveIncremental()).isFalse();
        assertThat(indexExists()).isTrue();

        Reply confirmed =
                olivia.task("rollback-incremental", Map.of("confirm", "yes", "reason", "bad deploy, schema too"));
        assertThat(confirmed.status()).isEqualTo(200);
        assertThat(confirmed.json().get("schemaRolledBack").asBoolean()).isTrue();
        assertThat(confirmed.json().get("gateChange").get("operator").asText()).isEqualTo("olivia-oncall");
        assertThat(indexExists()).isFalse();
        JsonNode after = olivia.get("/api/migrations").json();
        // Liquibase rolls the tagDatabase changeset back too, so the tag is pending again with the rest.
        assertThat(ids(after.get("ledger")))
                .contains("0014-create-sync-statistics")
                .doesNotContain(INDEX_CHANGESET);
        assertThat(after.get("rollbackTagPresent").asBoolean()).isFalse();
        JsonNode pending = after.get("pending");
        assertThat(ids(pending))
                .containsExactly("rehearsal-tag-before-incremental", "rehearsal-add-modified-at", INDEX_CHANGESET);
        assertThat(pending.get(2).get("sql").get(0).asText())
                .contains("CREATE INDEX CONCURRENTLY IF NOT EXISTS artifact_heads_sync_idx");
        JsonNode index = after.get("indexes").get(0);
        assertThat(index.get("name").asText()).isEqualTo("artifact_heads_sync_idx");
        assertThat(index.get("exists").asBoolean()).isFalse();
        assertThat(index.get("prebuild").asText())
                .isEqualTo(IncrementalSchema.INDEXES.get(0).prebuildStatement());

        // Record refuses out of order and before the index is in place, then accepts.
        Reply outOfOrder =
                olivia.post("/api/migrations/record", Map.of("id", INDEX_CHANGESET, "reason", "built by hand"));
        assertThat(outOfOrder.status()).isEqualTo(409);
        assertThat(outOfOrder.json().get("error").asText()).isEqualTo("earlier_changesets_pending");
        assertThat(olivia.task("record-migration", Map.of("id", "rehearsal-tag-before-incremental", "reason", "tag"))
                        .status())
                .isEqualTo(200);
        assertThat(olivia.get("/api/migrations")
                        .json()
                        .get("rollbackTagPresent")
                        .asBoolean())
                .isTrue();
        RELAY.jdbi()
                .useHandle(
                        h -> h.execute(
                                "ALTER TABLE artifact_heads ADD COLUMN modified_at timestamptz NOT NULL DEFAULT clock_timestamp()"));
        assertThat(olivia.task("record-migration", Map.of("id", "rehearsal-add-modified-at", "reason", "added by hand"))
                        .status())
                .isEqualTo(200);
        Reply noIndex = olivia.task("record-migration", Map.of("id", INDEX_CHANGESET, "reason", "built by hand"));
        assertThat(noIndex.status()).isEqualTo(409);
        assertThat(texts(noIndex.json().get("missing"))).containsExactly("index artifact_heads_sync_idx is missing");

        RELAY.jdbi().useHandle(h -> h.execute(IncrementalSchema.INDEXES.get(0).prebuildStatement()));
        Reply recorded = olivia.task("record-migration", Map.of("id", INDEX_CHANGESET, "reason", "built by hand"));
        assertThat(recorded.status()).isEqualTo(200);
        assertThat(recorded.json().get("exectype").asText()).isEqualTo("EXECUTED");
        assertThat(recorded.json().get("md5sum").asText()).startsWith("9:");
        assertThat(olivia.task("record-migration", Map.of("id", INDEX_CHANGESET, "reason", "again"))
                        .status())
                .isEqualTo(409);
        assertThat(olivia.task("record-migration", Map.of("id", "no-such-changeset", "reason", "typo"))
                        .status())
                .isEqualTo(404);

        JsonNode audit = olivia.get("/api/audit").json();
        assertThat(audit.findValuesAsText("outcome"))
                .contains("recorded", "refused: postcondition_unmet", "rolled back", "gate off", "dry run");

        // Liquibase agrees with the hand-made ledger: rolled back again and migrated forward, all is in place.
        assertThat(olivia.task("rollback-incremental", Map.of("confirm", "yes", "reason", "second rehearsal"))
                        .status())
                .isEqualTo(200);
        assertThat(indexExists()).isFalse();
        try (Connection connection = DriverManager.getConnection(RELAY.databaseUrl(), TestDatabases.USER, "")) {
            new Liquibase(CHANGELOG, new ClassLoaderResourceAccessor(), new JdbcConnection(connection)).update("");
        }
        assertThat(indexExists()).isTrue();
        assertThat(olivia.get("/api/migrations").json().get("pending")).isEmpty();
    }

    @Test
    void badRollbackParametersAre400s() {
        assertThat(olivia.task("rollback-incremental", Map.of("confirm", "yes"))
                        .json()
                        .get("error")
                        .asText())
                .isEqualTo("reason_required");
        assertThat(olivia.task("rollback-incremental", Map.of("confirm", "sure", "reason", "x"))
                        .status())
                .isEqualTo(400);
        assertThat(olivia.task("rollback-incremental", Map.of("confirm", "yes", "dry-run", "true", "reason", "x"))
                        .status())
                .isEqualTo(400);
        assertThat(olivia.task("record-migration", Map.of()).status()).isEqualTo(400);
        Reply nulId = olivia.task("record-migration", Map.of("id", "rehearsal\u0000", "reason", "typo"));
        assertThat(nulId.status()).as(nulId.body()).isEqualTo(400);
        assertThat(nulId.json().get("error").asText()).isEqualTo("nul_character");
        assertThat(olivia.task("record-migration", Map.of("id", "no-such-changeset", "reason", "a\u0000b"))
                        .status())
                .isEqualTo(400);
        assertThat(olivia.task("rollback-incremental", Map.of("dry-run", "true", "reason", "a\u0000b"))
                        .status())
                .isEqualTo(400);
    }

    private boolean indexExists() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT count(*) > 0 FROM pg_class WHERE relname = 'artifact_heads_sync_idx'")
                        .mapTo(Boolean.class)
                        .one());
    }

    private boolean effectiveIncremental() {
        for (JsonNode flag : olivia.get("/api/flags").json().get("flags")) {
            if (flag.get("gate").asText().equals("incremental")) {
                return flag.get("effective").asBoolean();
            }
        }
        throw new AssertionError("no incremental flag");
    }

    private static List<String> ids(JsonNode rows) {
        return rows.findValuesAsText("id");
    }
}
