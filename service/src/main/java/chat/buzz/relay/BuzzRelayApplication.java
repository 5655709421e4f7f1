package chat.buzz.relay;

import chat.buzz.relay.artifact.ArtifactFeature;
import chat.buzz.relay.auth.AuthFeature;
import chat.buzz.relay.auth.ReplayGuard;
import chat.buzz.relay.channel.ChannelDao;
import chat.buzz.relay.channel.ChannelFeature;
import chat.buzz.relay.channelmeta.ChannelMetadataEvents;
import chat.buzz.relay.channelmeta.ChannelMetadataReads;
import chat.buzz.relay.community.CommunityDao;
import chat.buzz.relay.community.CommunityDirectory;
import chat.buzz.relay.community.CommunityFeature;
import chat.buzz.relay.database.Database;
import chat.buzz.relay.database.DatabaseFeature;
import chat.buzz.relay.database.EmbeddedDatabase;
import chat.buzz.relay.database.ReadPlacement;
import chat.buzz.relay.database.ReadTransaction;
import chat.buzz.relay.database.RelayDatabase;
import chat.buzz.relay.database.SqlObjectMetadata;
import chat.buzz.relay.events.EventsFeature;
import chat.buzz.relay.events.EventsResource;
import chat.buzz.relay.fleet.Fleet;
import chat.buzz.relay.fleet.FleetFeature;
import chat.buzz.relay.fleet.InstanceName;
import chat.buzz.relay.gate.DatabaseGates;
import chat.buzz.relay.gate.FlagDao;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.gate.GateFeature;
import chat.buzz.relay.health.Drain;
import chat.buzz.relay.health.HealthFeature;
import chat.buzz.relay.identity.RelayIdentity;
import chat.buzz.relay.incremental.IncrementalFeature;
import chat.buzz.relay.info.InformationFeature;
import chat.buzz.relay.metrics.PrometheusFeature;
import chat.buzz.relay.ops.BurstDao;
import chat.buzz.relay.ops.DatabaseReadStatistics;
import chat.buzz.relay.ops.IncrementalReadiness;
import chat.buzz.relay.ops.OperationsFeature;
import chat.buzz.relay.proxy.TrustedProxies;
import chat.buzz.relay.query.QueryFeature;
import chat.buzz.relay.query.QueryResource;
import chat.buzz.relay.standby.StandbyFeature;
import chat.buzz.relay.standby.StandbyRouting;
import chat.buzz.relay.standby.StandbysResource;
import chat.buzz.relay.sync.SyncFeature;
import chat.buzz.relay.web.ErrorAnswers;
import chat.buzz.relay.web.QuietRequestLog;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.migrations.MigrationsBundle;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires the relay: explicit construction, feature by feature, no container magic. */
public class BuzzRelayApplication extends Application<BuzzRelayConfiguration> {
    private static final Logger LOG = LoggerFactory.getLogger(BuzzRelayApplication.class);

    public static void main(String[] args) throws Exception {
        new BuzzRelayApplication().run(args);
    }

    @Override
    public String getName() {
        return "buzz-relay";
    }

    @Override
    public void initialize(Bootstrap<BuzzRelayConfiguration> bootstrap) {
        bootstrap.setConfigurationSourceProvider(new SubstitutingSourceProvider(
                bootstrap.getConfigurationSourceProvider(), new EnvironmentVariableSubstitutor(false)));
        bootstrap.addBundle(new MigrationsBundle<>() {
            /** The {@code db} commands in local mode: no server lifecycle, so zonky's shutdown hook stops it. */
            private EmbeddedDatabase embedded;

            @Override
            public DataSourceFactory getDataSourceFactory(BuzzRelayConfiguration configuration) {
                if (embedded == null) {
                    embedded = new EmbeddedDatabase(configuration.getEmbeddedDatabase());
                }
                return Database.dataSourceFactory(
                        configuration.getEmbeddedDatabase(), embedded, configuration.getDataSourceFactory());
            }

            @Override
            public String getMigrationsFileName() {
                return Database.CHANGELOG;
            }
        });
    }

    @Override
    public void run(BuzzRelayConfiguration config, Environment environment) throws Exception {
        Clock clock = Clock.systemUTC();
        String instanceId = InstanceName.instanceId(
                System.getenv(InstanceName.VARIABLE), config.getInstanceName(), config.getServerFactory());
        InstanceName.nameConnections(config.getDataSourceFactory(), instanceId);
        RelayDatabase database = DatabaseFeature.register(
                environment,
                config.getEmbeddedDatabase(),
                config.getDataSourceFactory(),
                config.isAutoMigrate(),
                config.getChangelog(),
                clock);
        Jdbi jdbi = database.jdbi();
        // The SqlObjects the request paths attach to their handles (the write path runs plain statements).
        SqlObjectMetadata.computeOnce(jdbi, ChannelDao.class, CommunityDao.class, FlagDao.class, BurstDao.class);
        RelayIdentity identity = RelayIdentity.load(config.getRelay());
        LOG.info("Relay public key {}", identity.publicKeyHex());
        new TrustedProxies(config.getRelay().getTrustedProxies()).installOn(environment.lifecycle());
        QuietRequestLog.installOn(environment.lifecycle());
        CommunityDirectory communities = CommunityFeature.register(environment, jdbi, config.getCommunities());
        ReplayGuard replayGuard =
                AuthFeature.register(environment, config.getRelay(), config.getReplayGuard(), jdbi, clock);

        ScheduledExecutorService opsScheduler = OperationsFeature.scheduler(environment);
        IncrementalReadiness readiness = new IncrementalReadiness(jdbi);
        DatabaseGates gates = GateFeature.register(
                environment,
                jdbi,
                config.getGates(),
                readiness,
                config.getAdmin().getFlagRefresh(),
                opsScheduler);
        StartupSummary.installOn(
                environment.lifecycle(), instanceId, database.settings().getUrl(), gates);
        DatabaseReadStatistics statistics =
                OperationsFeature.statistics(environment, database, instanceId, clock, config.getAdmin(), opsScheduler);

        EventsFeature.register(
                environment,
                jdbi,
                clock,
                ChannelFeature.handlers(
                        config.getPolicyChangeLimit(),
                        OperationsFeature.policyChanges(environment),
                        statistics,
                        () -> gates.isEnabled(Gate.SCOPED_POLICY)),
                ArtifactFeature.handlers(identity, clock));
        StandbyRouting reads = StandbyFeature.register(
                environment,
                database,
                config.getDataSourceFactory(),
                config.getIncremental().getOverlapSeconds(),
                clock);
        ChannelMetadataReads channelMetadata = new ChannelMetadataReads(
                new ReadTransaction(
                        reads,
                        ReadTransaction.Isolation.READ_COMMITTED,
                        config.getCurrent().getStatementBudgetMillis()),
                ReadPlacement.READ_YOUR_WRITES,
                new ChannelMetadataEvents(identity, clock));
        QueryResource query = QueryFeature.register(
                environment,
                reads,
                config.getCurrent(),
                IncrementalFeature.reads(
                        config.getIncremental(), reads, gates, identity, statistics, environment.metrics()),
                channelMetadata);
        ErrorAnswers.register(
                environment,
                config.getServerFactory(),
                database.outage(),
                Map.of("/events", EventsResource.outageReply(), "/query", query.outageReply()));
        InformationFeature.register(
                environment,
                config.getRelay(),
                identity.publicKeyHex(),
                gates,
                config.getIncremental().getOverlapSeconds(),
                config.getSync());
        Drain drain = new Drain(config.getDrainPeriod());
        environment.lifecycle().addEventListener(drain);
        BooleanSupplier changeFeedConnected = SyncFeature.register(
                environment,
                config.getSync(),
                config.getRelay().getPublicScheme(),
                config.getIncremental().overlap(),
                new SyncFeature.Needs(
                        database,
                        communities,
                        gates,
                        identity,
                        clock,
                        channelMetadata.placed(ReadPlacement.PRIMARY),
                        statistics,
                        drain));

        HealthFeature.register(
                environment,
                jdbi,
                database.outage(),
                config.getChangelog(),
                changeFeedConnected,
                () -> gates.isEnabled(Gate.INCREMENTAL),
                drain,
                replayGuard::recordsNow);
        Fleet fleet = FleetFeature.register(
                environment,
                jdbi,
                instanceId,
                gates,
                changeFeedConnected,
                config.getAdmin(),
                opsScheduler,
                config.getDataSourceFactory().getMaxSize());
        OperationsFeature.register(
                environment,
                config.getAdmin(),
                database,
                config.getChangelog(),
                clock,
                gates,
                readiness,
                fleet,
                new StandbysResource(reads));
        PrometheusFeature.register(environment);
    }
}
