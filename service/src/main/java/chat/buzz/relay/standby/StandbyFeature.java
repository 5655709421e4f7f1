package chat.buzz.relay.standby;

import chat.buzz.relay.database.DatabaseFeature;
import chat.buzz.relay.database.DatabaseSettings;
import chat.buzz.relay.database.DatabaseUrl;
import chat.buzz.relay.database.PlainStatements;
import chat.buzz.relay.database.RelayDatabase;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.db.ManagedDataSource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.tomcat.jdbc.pool.DataSourceProxy;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;

/**
 * Hot standbys of the primary for reads ({@code database.replicas}; docs/scaling.md). Each gets a pool and
 * a sampler thread of its own. A replica that does not answer at start, is not in recovery, or belongs to
 * another cluster stops the start with one line naming it. With none configured, every read stays on the
 * primary as before (and is counted there).
 */
public final class StandbyFeature {
    /** How often each standby's replay lag is sampled. */
    static final Duration SAMPLE_PERIOD = Duration.ofSeconds(1);

    private StandbyFeature() {}

    public static StandbyRouting register(
            Environment environment,
            RelayDatabase database,
            DatabaseSettings settings,
            int overlapSeconds,
            Clock clock) {
        List<String> urls = settings.getReplicas();
        Duration maxLag = settings.getReplicaMaxLag().toJavaDuration();
        if (!urls.isEmpty() && (maxLag.isNegative() || maxLag.isZero() || maxLag.toSeconds() * 2 > overlapSeconds)) {
            throw new IllegalArgumentException("database.replicaMaxLag (" + maxLag.toSeconds()
                    + " s) must be positive and at most half of incremental.overlapSeconds (" + overlapSeconds
                    + " s): a session on a standby re-reads its overlap behind what the standby had applied");
        }
        List<Standby> standbys = new ArrayList<>();
        long cluster = urls.isEmpty() ? 0 : systemIdentifier(database.jdbi());
        for (int i = 0; i < urls.size(); i++) {
            String setting = "database.replicas[" + i + "]";
            DataSourceFactory factory = poolSettings(setting, urls.get(i), database.settings(), settings);
            String name = nameOf(factory.getUrl());
            ManagedDataSource pool = factory.build(environment.metrics(), "standby-" + name);
            environment.lifecycle().manage(pool);
            ((DataSourceProxy) pool).setUseStatementFacade(false);
            Jdbi jdbi = Jdbi.create(pool).installPlugin(new SqlObjectPlugin());
            DatabaseFeature.configure(jdbi);
            refuseUnlessStandbyOf(cluster, jdbi, setting + " (" + name + ")");
            standbys.add(new Standby(
                    name, jdbi, maxLag, () -> StandbyRouting.primaryPositionIfAnswering(database.jdbi()), clock));
        }
        for (Standby standby : standbys) {
            standby.sampleEvery(
                    environment
                            .lifecycle()
                            .scheduledExecutorService("standby-sampler-" + standby.name())
                            .threads(1)
                            .build(),
                    SAMPLE_PERIOD);
            String metric = "buzz.standby." + standby.name().replaceAll("[^A-Za-z0-9]+", "_");
            environment
                    .metrics()
                    .gauge(metric + ".lag-millis", () -> () -> standby.health().lagMillis());
            environment
                    .metrics()
                    .gauge(
                            metric + ".serving",
                            () -> () -> standby.health().state().serves() ? 1 : 0);
        }
        return new StandbyRouting(database.jdbi(), standbys, maxLag, environment.metrics());
    }

    /**
     * The standby's pool: the primary's user, password and connection properties unless its URL names its
     * own, a short wait for a connection and a short connect timeout, so a standby that went away costs a
     * read little before the primary answers it.
     */
    private static DataSourceFactory poolSettings(
            String setting, String raw, DataSourceFactory primary, DatabaseSettings settings) {
        DatabaseUrl url = DatabaseUrl.parse(raw, setting);
        DataSourceFactory factory = new DataSourceFactory();
        factory.setDriverClass(primary.getDriverClass());
        factory.setUrl(url.jdbcUrl());
        factory.setUser(url.user() != null ? url.user() : primary.getUser());
        factory.setPassword(url.password() != null ? url.password() : primary.getPassword());
        Map<String, String> properties = new HashMap<>(primary.getProperties());
        properties.putIfAbsent("connectTimeout", "2");
        factory.setProperties(properties);
        factory.setInitialSize(1);
        factory.setMinSize(1);
        factory.setMaxSize(settings.getReplicaMaxSize());
        factory.setMaxWaitForConnection(io.dropwizard.util.Duration.seconds(1));
        factory.setValidationQuery("/* buzz-relay standby check */ SELECT 1");
        factory.setCheckConnectionOnBorrow(true);
        return factory;
    }

    private static void refuseUnlessStandbyOf(long cluster, Jdbi jdbi, String which) {
        boolean recovering;
        long identifier;
        try {
            recovering = inRecovery(jdbi);
            identifier = systemIdentifier(jdbi);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(which + " does not answer: " + Standby.rootMessage(e));
        }
        if (!recovering) {
            throw new IllegalArgumentException(which
                    + " is not a standby (pg_is_in_recovery() is false): reads there would miss the primary's writes");
        }
        if (identifier != cluster) {
            throw new IllegalArgumentException(which + " is a standby of another cluster (system identifier "
                    + Long.toUnsignedString(identifier) + ", the primary's is " + Long.toUnsignedString(cluster)
                    + ")");
        }
    }

    private static boolean inRecovery(Jdbi jdbi) {
        return jdbi.withHandle(handle -> PlainStatements.on(handle)
                .first(StandbySql.IN_RECOVERY, none -> {}, row -> row.getBoolean(1))
                .orElseThrow());
    }

    private static long systemIdentifier(Jdbi jdbi) {
        return jdbi.withHandle(handle -> PlainStatements.on(handle)
                .first(StandbySql.SYSTEM_IDENTIFIER, none -> {}, row -> row.getLong(1))
                .orElseThrow());
    }

    /** host:port/database of a JDBC URL, as logs and the console name the standby. */
    static String nameOf(String jdbcUrl) {
        String rest = jdbcUrl.replaceFirst("^jdbc:postgresql:(//)?", "");
        int query = rest.indexOf('?');
        return query < 0 ? rest : rest.substring(0, query);
    }
}
