package chat.buzz.relay.health;

import chat.buzz.relay.database.DatabaseOutage;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Jdbi;

/** Unauthenticated probes, outside Jersey and its Host-based tenancy, so a load balancer can probe an address. */
public final class HealthFeature {
    private HealthFeature() {}

    public static Readiness register(
            Environment environment,
            Jdbi jdbi,
            DatabaseOutage outage,
            String changelog,
            BooleanSupplier changeFeedConnected,
            BooleanSupplier incrementalEnabled,
            Drain drain,
            BooleanSupplier replayGuardRecords) {
        DatabaseHealthCheck database = new DatabaseHealthCheck(jdbi, outage);
        environment.healthChecks().unregister(DatabaseHealthCheck.NAME);
        environment.healthChecks().register(DatabaseHealthCheck.NAME, database);
        environment
                .admin()
                .addFilter("health-status", new HealthStatusFilter(database, replayGuardRecords))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, HealthStatusFilter.PATH);
        environment.healthChecks().register(ChangeFeedHealthCheck.NAME, new ChangeFeedHealthCheck(changeFeedConnected));
        Readiness readiness = new Readiness(
                jdbi,
                RequiredSchema.of(changelog),
                changeFeedConnected,
                incrementalEnabled,
                environment.metrics().counter(Readiness.CHECKS));
        readiness.notReadyWhile(drain::draining);
        // Every signed HTTP request records its auth event id first: no record, no service.
        readiness.requires("the NIP-98 replay guard cannot record auth event ids", replayGuardRecords);
        environment
                .healthChecks()
                .register(
                        IncrementalSchemaHealthCheck.NAME,
                        new IncrementalSchemaHealthCheck(readiness, incrementalEnabled));
        environment
                .servlets()
                .addServlet("readiness", HealthServlet.readiness(readiness))
                .addMapping(HealthServlet.READY_PATH);
        environment.servlets().addServlet("liveness", HealthServlet.liveness()).addMapping(HealthServlet.LIVE_PATH);
        return readiness;
    }
}
