package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.relay.database.Database;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Migrations 0076–0078: forward, prebuilt indexes, a wrong prebuild, and rollback to the tag. */
@IntegrationTest
class IncrementalMigrationsTest {
    private String url;
    private Jdbi jdbi;

    @BeforeEach
    void freshDatabase() {
        url = TestDatabases.fresh();
        jdbi = Jdbi.create(url, TestDatabases.USER, "");
    }

    @AfterEach
    void dropDatabase() {
        TestDatabases.drop(url);
    }

    @Test
    void migratesRollsBackToTheTagAndMigratesAgain() throws Exception {
        migrate();
        assertIncrementalSchemaPresent();

        try (Connection connection = DriverManager.getConnection(url, TestDatabases.USER, "")) {
            liquibase(connection).rollback(IncrementalSchema.ROLLBACK_TAG, new Contexts(), new LabelExpression());
        }
        assertThat(columns())
                .doesNotContain(
                        "artifact_heads.modified_at",
                        "artifact_revisions.modified_at",
                        "channel_members.sync_modified_at",
                        "communities.artifact_policy_modified_at");
        assertThat(indexNames())
                .doesNotContainAnyElementsOf(IncrementalSchema.INDEXES.stream()
                        .map(ExpectedIndex::name)
                        .toList());
        assertThat(appliedChangesets()).doesNotContainAnyElementsOf(IncrementalSchema.CHANGESETS);
        assertThat(stampTriggers()).isEmpty();
        assertThat(stampFunctions()).isEmpty();

        migrate();
        assertIncrementalSchemaPresent();
    }

    @Test
    void prebuiltIndexesAreOnlyValidated() throws Exception {
        migrateUpToTag();
        try (Connection connection = DriverManager.getConnection(url, TestDatabases.USER, "")) {
            liquibase(connection).update(2, new Contexts(), new LabelExpression()); // 0076 and 0077
        }
        jdbi.useHandle(handle -> IncrementalSchema.INDEXES.forEach(index -> handle.execute(index.prebuildStatement())));
        List<Long> prebuilt = indexOids();

        migrate();

        assertIncrementalSchemaPresent();
        assertThat(indexOids()).isEqualTo(prebuilt);
    }

    @Test
    void aPrebuiltIndexWithAnotherDefinitionFailsTheMigration() throws Exception {
        migrateUpToTag();
        jdbi.useHandle(handle -> handle.execute("CREATE INDEX channel_members_sync_idx ON channel_members (pubkey)"));
        assertThatThrownBy(this::migrate).hasStackTraceContaining("channel_members_sync_idx has definition");
    }

    private void assertIncrementalSchemaPresent() {
        assertThat(columns())
                .contains(
                        "artifact_heads.modified_at",
                        "artifact_revisions.modified_at",
                        "channel_members.sync_modified_at",
                        "communities.artifact_policy_modified_at");
        for (ExpectedIndex index : IncrementalSchema.INDEXES) {
            String definition = jdbi.withHandle(handle -> handle.createQuery("""
                            SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
                            WHERE i.indexrelid = to_regclass(:name) AND i.indisvalid AND i.indisready""")
                    .bind("name", "public." + index.name())
                    .mapTo(String.class)
                    .one());
            assertThat(definition).isEqualTo(index.definition());
        }
        assertThat(appliedChangesets()).containsAll(IncrementalSchema.CHANGESETS);
        assertThat(stampTriggers())
                .containsExactlyInAnyOrder(
                        "artifact_heads.artifact_heads_stamp_modified_at",
                        "events.events_stamp_redacted_head",
                        "channel_members.channel_members_stamp_sync_modified_at",
                        "channels.channels_stamp_artifact_policy");
        assertThat(stampFunctions()).containsExactlyInAnyOrderElementsOf(STAMP_FUNCTIONS);
    }

    private static final List<String> STAMP_FUNCTIONS = List.of(
            "artifact_heads_stamp_modified_at",
            "events_stamp_redacted_head",
            "channel_members_stamp_sync_modified_at",
            "channels_stamp_artifact_policy");

    /** The triggers of 0076/0077 (named like their functions), as table.trigger. */
    private List<String> stampTriggers() {
        return jdbi.withHandle(handle -> handle.createQuery("""
                        SELECT c.relname || '.' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                        WHERE NOT t.tgisinternal AND t.tgname = ANY(:names)""")
                .bind("names", STAMP_FUNCTIONS.toArray(String[]::new))
                .mapTo(String.class)
                .list());
    }

    private List<String> stampFunctions() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT proname FROM pg_proc WHERE proname = ANY(:names)")
                .bind("names", STAMP_FUNCTIONS.toArray(String[]::new))
                .mapTo(String.class)
                .list());
    }

    private List<String> columns() {
        return jdbi.withHandle(
                handle -> handle.createQuery("""
                SELECT table_name || '.' || column_name FROM information_schema.columns
                WHERE table_schema = 'public'""").mapTo(String.class).list());
    }

    private List<String> indexNames() {
        return jdbi.withHandle(
                handle -> handle.createQuery("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")
                        .mapTo(String.class)
                        .list());
    }

    private List<Long> indexOids() {
        return IncrementalSchema.INDEXES.stream()
                .map(index -> jdbi.withHandle(handle -> handle.createQuery("SELECT CAST(to_regclass(:name) AS oid)")
                        .bind("name", "public." + index.name())
                        .mapTo(Long.class)
                        .one()))
                .toList();
    }

    private List<String> appliedChangesets() {
        return jdbi.withHandle(handle -> handle.createQuery("SELECT id FROM databasechangelog")
                .mapTo(String.class)
                .list());
    }

    private void migrate() throws Exception {
        try (Connection connection = DriverManager.getConnection(url, TestDatabases.USER, "")) {
            liquibase(connection).update(new Contexts(), new LabelExpression());
        }
    }

    private void migrateUpToTag() throws Exception {
        try (Connection connection = DriverManager.getConnection(url, TestDatabases.USER, "")) {
            liquibase(connection).update(IncrementalSchema.ROLLBACK_TAG, new Contexts(), new LabelExpression());
        }
    }

    @SuppressWarnings("deprecation")
    private static Liquibase liquibase(Connection connection) throws Exception {
        return new Liquibase(Database.CHANGELOG, new ClassLoaderResourceAccessor(), new JdbcConnection(connection));
    }
}
