package chat.buzz.relay.database;

import chat.buzz.relay.BuzzRelayConfiguration;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.db.ManagedDataSource;
import io.dropwizard.migrations.CloseableLiquibase;
import io.dropwizard.migrations.CloseableLiquibaseWithClassPathMigrationsFile;
import com.codahale.metrics.MetricRegistry;
import liquibase.Contexts;
import liquibase.LabelExpression;

/** Where the relay's database comes from, and bringing its schema up to date. */
public final class Database {
    public static final String CHANGELOG = "migrations.xml";

    private Database() {}

    /** The configured data source; in local mode this starts the embedded PostgreSQL first. */
    public static DataSourceFactory dataSourceFactory(BuzzRelayConfiguration config) {
        return EmbeddedDatabase.prepare(config.getEmbeddedDatabase(), config.getDataSourceFactory());
    }

    public static void migrate(DataSourceFactory factory, String changelog) throws Exception {
        ManagedDataSource dataSource = factory.build(new MetricRegistry(), "migrations");
        try (CloseableLiquibase liquibase = new CloseableLiquibaseWithClassPathMigrationsFile(dataSource, changelog)) {
            liquibase.update(new Contexts(), new LabelExpression());
        }
    }
}
