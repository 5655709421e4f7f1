package chat.buzz.relay.health;

import io.dropwizard.core.setup.Environment;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Jdbi;

/** Unauthenticated probes, outside Jersey and its Host-based tenancy, so a load balancer can probe an address. */
public final class HealthFeature {
    private HealthFeature() {}

    public static void register(
            Environment environment, Jdbi jdbi, String changelog, BooleanSupplier changeFeedConnected) {
        environment.healthChecks().register(ChangeFeedHealthCheck.NAME, new ChangeFeedHealthCheck(changeFeedConnected));
        Readiness readiness = new Readiness(jdbi, RequiredSchema.of(changelog), changeFeedConnected);
        environment
                .servlets()
                .addServlet("readiness", HealthServlet.readiness(readiness))
                .addMapping(HealthServlet.READY_PATH);
        environment.servlets().addServlet("liveness", HealthServlet.liveness()).addMapping(HealthServlet.LIVE_PATH);
    }
}
