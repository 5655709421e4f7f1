package chat.buzz.relay.database;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.db.ManagedDataSource;
import io.dropwizard.jdbi3.JdbiFactory;
import java.time.Clock;
import org.apache.tomcat.jdbc.pool.DataSourceProxy;
import org.jdbi.v3.core.Handles;
import org.jdbi.v3.core.Jdbi;

/** Connects the relay to its database: the embedded server in local mode, migrations, the pool. */
public final class DatabaseFeature {
    private DatabaseFeature() {}

    /** Runs the migrations (when {@code autoMigrate}) before anything else can read the schema. */
    public static RelayDatabase register(
            Environment environment,
            EmbeddedDatabaseConfig embedded,
            DataSourceFactory configured,
            boolean autoMigrate,
            String changelog,
            Clock clock)
            throws Exception {
        EmbeddedDatabase local = new EmbeddedDatabase(embedded);
        if (embedded.isEnabled()) {
            // Started now rather than by the lifecycle, which starts managed objects only after run: the
            // migrations below and the features wired after them read the database while run builds them.
            local.start();
            // Managed first, so stopped last: after the pool, the change listener and the fleet view.
            environment.lifecycle().manage(local);
            local.stoppedByServer();
        }
        DataSourceFactory settings = Database.dataSourceFactory(embedded, local, configured);
        if (autoMigrate) {
            Database.migrate(settings, changelog);
        }
        ManagedDataSource pool = settings.build(environment.metrics(), "postgresql");
        // The pool's statement facade puts every statement and result set behind a reflective proxy, so
        // each column read became a Method.invoke: 7 % of the relay's CPU samples on bootstrap pages of
        // 1,000 (docs/benchmarks.md). Jdbi closes what it opens, which is all the facade guards against.
        DataSourceProxy proxy = (DataSourceProxy) pool;
        proxy.setUseStatementFacade(false);
        Jdbi jdbi = new JdbiFactory().build(environment, settings, pool, "postgresql");
        configure(jdbi);
        // After a failover or a restart the pooled connections may lead to the old server: replace them.
        DatabaseOutage outage = new DatabaseOutage(clock, proxy::purge);
        jdbi.getConfig(Handles.class).addListener(outage);
        return new RelayDatabase(settings, jdbi, outage);
    }

    /** What every Jdbi of the relay's data needs, the primary's and each standby's alike. */
    public static void configure(Jdbi jdbi) {
        jdbi.setTemplateEngine(new NamedStatementTemplates());
        // Stored JSON is read as the bytes the database sent and written out as they are.
        jdbi.registerColumnMapper(
                RawJson.class, (result, column, context) -> RawJson.ofNullable(result.getBytes(column)));
    }
}
