package chat.buzz.relay.database;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestDatabases;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.config.ConfigRegistry;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.jdbi.v3.sqlobject.customizer.Define;
import org.jdbi.v3.sqlobject.statement.SqlQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The relay's statements still carry their SqlObject method's name, and their templates can be cached. */
@IntegrationTest
class NamedStatementTemplatesTest {
    private static String url;
    private static Jdbi jdbi;

    interface Probe {
        @SqlQuery("SELECT current_query() WHERE <condition>")
        String runningStatement(@Define("condition") String condition);
    }

    @BeforeAll
    static void createDatabase() {
        url = TestDatabases.fresh();
        jdbi = Jdbi.create(url, TestDatabases.USER, "").installPlugin(new SqlObjectPlugin());
        jdbi.setTemplateEngine(new NamedStatementTemplates());
    }

    @AfterAll
    static void dropDatabase() {
        TestDatabases.drop(url);
    }

    @Test
    void aSqlObjectStatementReachesTheServerNamedAfterItsMethodWithItsDefinesApplied() {
        String matching = jdbi.withExtension(Probe.class, probe -> probe.runningStatement("true"));
        String none = jdbi.withExtension(Probe.class, probe -> probe.runningStatement("false"));

        assertThat(matching).isEqualTo("/* Probe.runningStatement */ SELECT current_query() WHERE true");
        assertThat(none)
                .as("the same template with another define renders anew")
                .isNull();
    }

    @Test
    void aStatementOutsideASqlObjectGoesOutAsWritten() {
        String sql = jdbi.withHandle(handle -> handle.createQuery("SELECT current_query() WHERE <condition>")
                .define("condition", "1 = 1")
                .mapTo(String.class)
                .one());

        assertThat(sql).isEqualTo("SELECT current_query() WHERE 1 = 1");
    }

    @Test
    void everyTemplateParsesSoJdbiCanCacheIt() {
        NamedStatementTemplates engine = new NamedStatementTemplates();

        assertThat(engine.parse("SELECT 1", new ConfigRegistry())).isPresent();
        assertThat(engine.parse("SELECT <columns> FROM t", new ConfigRegistry()))
                .isPresent();
    }
}
