package chat.buzz.relay;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Nip98Verifier;
import chat.buzz.relay.admin.AdminConfig;
import chat.buzz.relay.admin.AdminSecurityFilter;
import chat.buzz.relay.admin.OperatorTokens;
import chat.buzz.relay.artifact.ArtifactWrites;
import chat.buzz.relay.artifact.Redactions;
import chat.buzz.relay.artifact.RemovalMarkers;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.auth.Nip98AuthFilter;
import chat.buzz.relay.auth.PostgresReplayGuard;
import chat.buzz.relay.auth.ReplayGuard;
import chat.buzz.relay.auth.RequestBodies;
import chat.buzz.relay.channel.ChannelWrites;
import chat.buzz.relay.channel.PolicyChangeLimit;
import chat.buzz.relay.channel.PolicyChangeRecorder;
import chat.buzz.relay.community.CommunityDirectory;
import chat.buzz.relay.community.TenancyFilter;
import chat.buzz.relay.database.Database;
import chat.buzz.relay.database.DatabaseOutage;
import chat.buzz.relay.database.EmbeddedDatabase;
import chat.buzz.relay.events.EventHandler;
import chat.buzz.relay.events.EventWriter;
import chat.buzz.relay.events.EventsResource;
import chat.buzz.relay.fleet.Fleet;
import chat.buzz.relay.fleet.InstancesServlet;
import chat.buzz.relay.gate.FlagService;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.gate.Gates;
import chat.buzz.relay.health.HealthServlet;
import chat.buzz.relay.health.Readiness;
import chat.buzz.relay.health.RequiredSchema;
import chat.buzz.relay.identity.RelayIdentity;
import chat.buzz.relay.incremental.CursorCodec;
import chat.buzz.relay.incremental.IncrementalConfig;
import chat.buzz.relay.incremental.IncrementalReads;
import chat.buzz.relay.incremental.ReadCapacity;
import chat.buzz.relay.info.Capabilities;
import chat.buzz.relay.info.InformationResource;
import chat.buzz.relay.channel.PolicyChangeRecorder;
import chat.buzz.relay.ops.BurstTimeline;
import chat.buzz.relay.ops.DatabaseSyncStatistics;
import chat.buzz.relay.ops.IncrementalReadiness;
import chat.buzz.relay.ops.IncrementalRollback;
import chat.buzz.relay.ops.MigrationLedger;
import chat.buzz.relay.ops.OperatorActions;
import chat.buzz.relay.ops.OpsApiServlet;
import chat.buzz.relay.ops.OpsTasks;
import chat.buzz.relay.ops.PolicyStampAdvances;
import chat.buzz.relay.ops.SyncStatistics;
import chat.buzz.relay.proxy.TrustedProxies;
import chat.buzz.relay.query.CurrentReads;
import chat.buzz.relay.query.IncrementalMode;
import chat.buzz.relay.query.QueryResource;
import chat.buzz.relay.sync.ChangeNotifications;
import chat.buzz.relay.sync.SyncFeature;
import chat.buzz.relay.web.JsonErrorHandler;
import chat.buzz.relay.web.JsonServletErrorHandler;
import chat.buzz.relay.web.OutageReply;
import chat.buzz.relay.web.UnexpectedExceptionMapper;
import chat.buzz.relay.web.WebApplicationExceptionMapper;
import io.dropwizard.auth.AuthDynamicFeature;
import io.dropwizard.auth.AuthValueFactoryProvider;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.jdbi3.JdbiFactory;
import io.dropwizard.migrations.MigrationsBundle;
import io.dropwizard.lifecycle.Managed;
import io.dropwizard.servlets.assets.AssetServlet;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import jakarta.servlet.DispatcherType;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.EnumSet;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import org.jdbi.v3.core.Handles;
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
            @Override
            public DataSourceFactory getDataSourceFactory(BuzzRelayConfiguration configuration) {
                return Database.dataSourceFactory(configuration);
            }

            @Override
            public String getMigrationsFileName() {
                return Database.CHANGELOG;
            }
        });
    }

    @Override
    public void run(BuzzRelayConfiguration config, Environment environment) throws Exception {
        DataSourceFactory dataSource = Database.dataSourceFactory(config);
        if (config.getEmbeddedDatabase().isEnabled()) {
            environment.lifecycle().manage(EmbeddedDatabase.stoppedWithServer());
        }
        if (config.isAutoMigrate()) {
            Database.migrate(dataSource, config.getChangelog());
        }
        Jdbi jdbi = new JdbiFactory().build(environment, dataSource, "postgresql");
        Clock clock = Clock.systemUTC();
        DatabaseOutage outage = new DatabaseOutage(clock);
        jdbi.getConfig(Handles.class).addListener(outage);
        RelayIdentity identity = RelayIdentity.load(config.getRelay());
        LOG.info("Relay public key {}", identity.publicKeyHex());
        CommunityDirectory communities = CommunityDirectory.load(jdbi, config.getCommunities());

        new TrustedProxies(config.getRelay().getTrustedProxies()).installOn(environment.lifecycle());
        environment.jersey().register(new TenancyFilter(communities));
        ReplayGuard replayGuard = new PostgresReplayGuard(jdbi);
        registerAuthentication(config, environment, clock, replayGuard);
        purgeReplayGuardPeriodically(environment, replayGuard);

        ScheduledExecutorService opsScheduler = environment.lifecycle()
                .scheduledExecutorService("ops-%d").threads(1).build();
        IncrementalReadiness readiness = new IncrementalReadiness(jdbi);
        FlagService gates = new FlagService(jdbi, config.getGates(), readiness);
        gates.registerMetrics(environment.metrics());
        gates.refreshEvery(opsScheduler, config.getAdmin().getFlagRefresh().toMilliseconds());
        Capabilities capabilities = new Capabilities();
        for (Gate gate : Gate.values()) {
            capabilities.register(gate.capability(), () -> gates.isEnabled(gate));
        }
        String instanceId = instanceId();
        DatabaseSyncStatistics syncStatistics = new DatabaseSyncStatistics(jdbi, instanceId, clock, environment.metrics());
        syncStatistics.flushEvery(opsScheduler, config.getAdmin().getStatisticsFlush().toMilliseconds());
        environment.lifecycle().manage(new Managed() {
            @Override
            public void stop() {
                syncStatistics.flush();
            }
        });
        PolicyChangeRecorder policyChanges = PolicyChangeRecorder.all(
                new PolicyStampAdvances(environment.metrics()), ChangeNotifications.POLICY_RECORDER);

        Map<Integer, EventHandler> handlers = new HashMap<>(new ChannelWrites(policyChanges,
                new PolicyChangeLimit(config.getPolicyChangeLimit(), syncStatistics)).handlers());
        handlers.put(Kinds.ARTIFACT_REVISION, new ArtifactWrites(new RemovalMarkers(identity, clock)));
        handlers.put(Kinds.REDACTION, new Redactions());
        environment.jersey().register(new EventsResource(new EventWriter(jdbi, handlers, clock)));

        IncrementalMode incremental = incrementalReads(config.getIncremental(), jdbi, gates, identity, syncStatistics);
        QueryResource query = new QueryResource(new CurrentReads(jdbi, config.getCurrent()), incremental);
        environment.jersey().register(query);
        registerErrorAnswers(config, environment, outage,
                Map.of("/events", EventsResource.outageReply(), "/query", query.outageReply()));
        environment.jersey().register(new InformationResource(config.getRelay(), identity.publicKeyHex(), capabilities,
                config.getIncremental().getOverlapSeconds()));
        BooleanSupplier changeFeedConnected = SyncFeature.register(environment, config.getSync(), jdbi, dataSource,
                communities, gates, identity,
                config.getRelay().getPublicScheme(), clock, config.getIncremental().getOverlapSeconds(), outage);

        registerProbes(environment, new Readiness(jdbi, RequiredSchema.of(config.getChangelog()), changeFeedConnected));
        Fleet fleet = new Fleet(jdbi, instanceId, hostName(), gates, changeFeedConnected, environment.metrics(),
                config.getAdmin().getHeartbeat().toJavaDuration(), config.getAdmin().getForgetInstanceAfter().toJavaDuration());
        fleet.beatEvery(opsScheduler);
        environment.admin().addServlet("instances", new InstancesServlet(fleet,
                environment.getObjectMapper().copy().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)))
                .addMapping(InstancesServlet.PATH);
        registerOperations(config, environment, jdbi, clock, gates, readiness, dataSource, fleet, outage);
    }

    /** Unauthenticated, outside Jersey and its Host-based tenancy, so a load balancer can probe an address. */
    private static void registerProbes(Environment environment, Readiness readiness) {
        environment.servlets().addServlet("readiness", HealthServlet.readiness(readiness))
                .addMapping(HealthServlet.READY_PATH);
        environment.servlets().addServlet("liveness", HealthServlet.liveness()).addMapping(HealthServlet.LIVE_PATH);
    }

    /** The admin port: operator token on every route, the console, its JSON API and the runbooks' tasks. */
    private static void registerOperations(BuzzRelayConfiguration config, Environment environment, Jdbi jdbi, Clock clock,
                                           FlagService gates, IncrementalReadiness readiness, DataSourceFactory dataSource,
                                           Fleet fleet, DatabaseOutage outage) {
        AdminConfig admin = config.getAdmin();
        OperatorTokens tokens = OperatorTokens.load(admin, System.getenv());
        environment.admin().addFilter("admin-security", new AdminSecurityFilter(tokens))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");

        ObjectMapper json = environment.getObjectMapper().copy().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        MigrationLedger ledger = new MigrationLedger(jdbi, dataSource, config.getChangelog(), readiness);
        // Long enough for several heartbeats and flag rereads; a frozen instance never confirms.
        Duration confirmationBound = Duration.ofMillis(Math.max(5 * admin.getHeartbeat().toMilliseconds(),
                4 * admin.getFlagRefresh().toMilliseconds()));
        IncrementalRollback rollback = new IncrementalRollback(gates, ledger, fleet, confirmationBound);
        OperatorActions actions = new OperatorActions(gates, ledger, rollback);
        BurstTimeline bursts = new BurstTimeline(jdbi, clock, admin.getBurstThreshold());
        environment.admin().addServlet("ops-api", new OpsApiServlet(gates, readiness, ledger, bursts, actions, json, outage))
                .addMapping("/api/*");
        OpsTasks.all(actions, json).forEach(environment.admin()::addTask);
        environment.admin().addServlet("console", new AssetServlet("/console", "/console", "index.html",
                StandardCharsets.UTF_8)).addMapping("/console/*");
    }

    private static IncrementalMode incrementalReads(IncrementalConfig config, Jdbi jdbi, Gates gates,
                                                    RelayIdentity identity, SyncStatistics statistics) {
        byte[] secret = config.getCursorSecret().isEmpty()
                ? CursorCodec.deriveSecret(identity.keys().secretKey())
                : config.getCursorSecret().getBytes(StandardCharsets.UTF_8);
        return new IncrementalReads(jdbi, gates, new CursorCodec(secret), new ReadCapacity(config), statistics, config);
    }

    /** Names this instance in the per-instance statistics; the random part tells restarts apart. */
    private static String instanceId() {
        return hostName() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }

    private static void registerErrorAnswers(BuzzRelayConfiguration config, Environment environment,
                                             DatabaseOutage outage, Map<String, OutageReply> outageReplies) {
        if (config.getServerFactory() instanceof AbstractServerFactory server) {
            // Our mappers answer every error in the contract's {"error": ...} shape.
            server.setRegisterDefaultExceptionMappers(false);
        }
        environment.jersey().register(new WebApplicationExceptionMapper());
        environment.jersey().register(new UnexpectedExceptionMapper(outage, outageReplies));
        // What Jetty answers itself (a header too large, an unknown admin route) is JSON too, on both ports.
        environment.getApplicationContext().setErrorHandler(new JsonServletErrorHandler());
        environment.getAdminContext().setErrorHandler(new JsonServletErrorHandler());
        environment.lifecycle().addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                if (event instanceof Server server) {
                    server.setErrorHandler(new JsonErrorHandler());
                }
            }
        });
    }

    private static void registerAuthentication(BuzzRelayConfiguration config, Environment environment, Clock clock,
                                               ReplayGuard replayGuard) {
        var relay = config.getRelay();
        Nip98AuthFilter filter = new Nip98AuthFilter(new Nip98Verifier(clock), replayGuard,
                new RequestBodies(relay.getMaxBodyBytes()), relay.getPublicScheme(),
                Duration.ofSeconds(relay.getReplayWindowSeconds()));
        environment.jersey().register(new AuthDynamicFeature(filter));
        environment.jersey().register(new AuthValueFactoryProvider.Binder<>(Caller.class));
    }

    private static void purgeReplayGuardPeriodically(Environment environment, ReplayGuard replayGuard) {
        ScheduledExecutorService purger = environment.lifecycle()
                .scheduledExecutorService("replay-guard-purge").threads(1).build();
        purger.scheduleWithFixedDelay(() -> {
            try {
                replayGuard.purgeExpired();
            } catch (RuntimeException e) {
                LOG.warn("Replay guard purge failed; will retry", e);
            }
        }, 1, 1, TimeUnit.MINUTES);
    }
}
