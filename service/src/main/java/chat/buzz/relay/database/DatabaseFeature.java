package chat.buzz.relay.database;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.jdbi3.JdbiFactory;
import java.time.Clock;
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
        DataSourceFactory settings = Database.dataSourceFactory(embedded, configured);
        if (embedded.isEnabled()) {
            environment.lifecycle().manage(EmbeddedDatabase.stoppedWithServer());
        }
        if (autoMigrate) {
            Database.migrate(settings, changelog);
        }
        Jdbi jdbi = new JdbiFactory().build(environment, settings, "postgresql");
        DatabaseOutage outage = new DatabaseOutage(clock);
        jdbi.getConfig(Handles.class).addListener(outage);
        return new RelayDatabase(settings, jdbi, outage);
    }
}
