package chat.buzz.relay.health;

import io.dropwizard.core.setup.Environment;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Jdbi;

/** Unauthenticated probes, outside Jersey and its Host-based tenancy, so a load balancer can probe an address. */
public final class HealthFeature {
    private HealthFeature() {}

    public static Readiness register(
            Environment environment,
            Jdbi jdbi,
            String changelog,
            BooleanSupplier changeFeedConnected,
            BooleanSupplier incrementalEnabled) {
        environment.healthChecks().register(ChangeFeedHealthCheck.NAME, new ChangeFeedHealthCheck(changeFeedConnected));
        Readiness readiness = new Readiness(
                jdbi,
                RequiredSchema.of(changelog),
                changeFeedConnected,
                incrementalEnabled,
                environment.metrics().counter(Readiness.CHECKS));
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
