package chat.buzz.relay.database;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.db.ManagedDataSource;
import io.dropwizard.migrations.CloseableLiquibase;
import io.dropwizard.migrations.CloseableLiquibaseWithClassPathMigrationsFile;
import java.util.Map;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Scope;
import liquibase.UpdateSummaryOutputEnum;
import liquibase.ui.LoggerUIService;

/** Where the relay's database comes from, and bringing its schema up to date. */
public final class Database {
    public static final String CHANGELOG = "migrations.xml";

    private Database() {}

    /**
     * The configured data source, with the user and password a {@code postgres://} URL names; in local mode,
     * pointed at {@code embedded} (started first if it is not running yet).
     */
    public static DataSourceFactory dataSourceFactory(
            EmbeddedDatabaseConfig config, EmbeddedDatabase embedded, DataSourceFactory configured) {
        DataSourceFactory factory = config.isEnabled() ? embedded.pointAt(configured) : configured;
        DatabaseUrl url = DatabaseUrl.parse(factory.getUrl());
        factory.setUrl(url.jdbcUrl());
        if (url.user() != null && isBlankOrUnset(factory.getUser())) {
            factory.setUser(url.user());
        }
        if (url.password() != null && isBlankOrUnset(factory.getPassword())) {
            factory.setPassword(url.password());
        }
        if (isBlankOrUnset(factory.getUser())) {
            throw new IllegalArgumentException(
                    "BUZZ_DATABASE_USER (database.user) is not set, and " + DatabaseUrl.VARIABLE + " names no user");
        }
        return factory;
    }

    private static boolean isBlankOrUnset(String value) {
        return value == null || value.isBlank() || UnsetVariable.isPlaceholder(value);
    }

    public static void migrate(DataSourceFactory factory, String changelog) throws Exception {
        ManagedDataSource dataSource = factory.build(new MetricRegistry(), "migrations");
        try (CloseableLiquibase liquibase = new CloseableLiquibaseWithClassPathMigrationsFile(dataSource, changelog)) {
            // Liquibase's console output (each changeset, a summary) goes to its logger instead of standard
            // output, so a normal start shows it only when the liquibase logger is turned up.
            liquibase.setShowSummaryOutput(UpdateSummaryOutputEnum.LOG);
            Scope.child(
                    Map.of(Scope.Attr.ui.name(), new LoggerUIService()),
                    () -> liquibase.update(new Contexts(), new LabelExpression()));
        }
    }
}
