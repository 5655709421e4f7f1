package chat.buzz.relay.ops;

import chat.buzz.relay.admin.AdminConfig;
import chat.buzz.relay.admin.AdminSecurityFilter;
import chat.buzz.relay.admin.ConsoleHeaders;
import chat.buzz.relay.admin.OperatorTokens;
import chat.buzz.relay.changes.ChangeNotifications;
import chat.buzz.relay.changes.PolicyChangeRecorder;
import chat.buzz.relay.database.RelayDatabase;
import chat.buzz.relay.fleet.Fleet;
import chat.buzz.relay.fleet.GateFlips;
import chat.buzz.relay.gate.DatabaseGates;
import chat.buzz.relay.standby.StandbysResource;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.jersey.DropwizardResourceConfig;
import io.dropwizard.jersey.jackson.JacksonFeature;
import io.dropwizard.lifecycle.Managed;
import io.dropwizard.servlets.assets.AssetServlet;
import jakarta.servlet.DispatcherType;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.EnumSet;
import java.util.concurrent.ScheduledExecutorService;
import org.glassfish.jersey.servlet.ServletContainer;

/** The admin port: operator token on every route, the console, its JSON API and the runbooks' tasks. */
public final class OperationsFeature {
    private OperationsFeature() {}

    /** The one scheduler of the operations work: flag rereads, statistics flushes, heartbeats. */
    public static ScheduledExecutorService scheduler(Environment environment) {
        return environment
                .lifecycle()
                .scheduledExecutorService("ops-%d")
                .threads(1)
                .build();
    }

    /** Burst statistics, flushed to the database on a schedule and once more when the relay stops. */
    public static DatabaseReadStatistics statistics(
            Environment environment,
            RelayDatabase database,
            String instanceId,
            Clock clock,
            AdminConfig admin,
            ScheduledExecutorService scheduler) {
        DatabaseReadStatistics statistics =
                new DatabaseReadStatistics(database.jdbi(), instanceId, clock, environment.metrics());
        statistics.flushEvery(scheduler, admin.getStatisticsFlush().toMilliseconds());
        environment.lifecycle().manage(new Managed() {
            @Override
            public void stop() {
                statistics.flush();
            }
        });
        return statistics;
    }

    /** A policy change is counted for the console and announced to WebSocket subscribers. */
    public static PolicyChangeRecorder policyChanges(Environment environment) {
        return PolicyChangeRecorder.all(
                new PolicyStampAdvances(environment.metrics()), ChangeNotifications.POLICY_RECORDER);
    }

    public static void register(
            Environment environment,
            AdminConfig admin,
            RelayDatabase database,
            String changelog,
            Clock clock,
            DatabaseGates gates,
            IncrementalReadiness readiness,
            Fleet fleet,
            StandbysResource standbys) {
        OperatorTokens tokens = OperatorTokens.load(admin, System.getenv());
        environment
                .admin()
                .addFilter("console-headers", new ConsoleHeaders())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        environment
                .admin()
                .addFilter("admin-security", new AdminSecurityFilter(tokens))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");

        ObjectMapper json =
                environment.getObjectMapper().copy().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        MigrationLedger ledger = new MigrationLedger(database.jdbi(), database.settings(), changelog, readiness);
        GateFlips flips = new GateFlips(gates, fleet, admin.confirmationBound());
        IncrementalRollback rollback = new IncrementalRollback(flips, ledger);
        OperatorActions actions = new OperatorActions(flips, ledger, rollback, fleet);
        BurstTimeline bursts = new BurstTimeline(database.jdbi(), clock, admin.getBurstThreshold());
        DropwizardResourceConfig api = new DropwizardResourceConfig(environment.metrics());
        api.register(new JacksonFeature(json));
        api.register(new OpsApiResource(fleet, gates, readiness, ledger, bursts, actions));
        api.register(standbys);
        OpsApiErrors.all(database.outage()).forEach(api::register);
        // Jersey on the admin context: behind the same security filter as every admin route.
        environment.admin().addServlet("ops-api", new ServletContainer(api)).addMapping("/api/*");
        OpsTasks.all(actions, json, database.outage()).forEach(environment.admin()::addTask);
        environment
                .admin()
                .addFilter("builtin-actions-audit", new BuiltInActionsAudit(ledger))
                .addMappingForUrlPatterns(
                        EnumSet.of(DispatcherType.REQUEST), true, BuiltInActionsAudit.PATHS.toArray(String[]::new));
        environment
                .admin()
                .addServlet("console", new AssetServlet("/console", "/console", "index.html", StandardCharsets.UTF_8))
                .addMapping("/console/*");
    }
}
