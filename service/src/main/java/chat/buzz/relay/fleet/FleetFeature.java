package chat.buzz.relay.fleet;

import chat.buzz.relay.admin.AdminConfig;
import chat.buzz.relay.gate.DatabaseGates;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Jdbi;

/** Every instance beats into the database; the admin API (GET /api/instances) lists the fleet from there. */
public final class FleetFeature {
    private FleetFeature() {}

    public static Fleet register(
            Environment environment,
            Jdbi jdbi,
            String instanceId,
            DatabaseGates gates,
            BooleanSupplier changeFeedConnected,
            AdminConfig admin,
            ScheduledExecutorService scheduler,
            int poolMaxSize) {
        // Dropwizard's pool gauges say how many connections are in use and open, not how many there may
        // be: the fleet view and a dashboard need the maximum to tell a busy pool from an exhausted one.
        environment.metrics().gauge(Fleet.POOL_MAX_SIZE, () -> () -> poolMaxSize);
        Fleet fleet = new Fleet(
                jdbi,
                instanceId,
                InstanceName.hostName(),
                gates,
                changeFeedConnected,
                environment.metrics(),
                admin.getHeartbeat().toJavaDuration(),
                admin.getForgetInstanceAfter().toJavaDuration());
        fleet.beatEvery(scheduler);
        // A relay that stops cleanly leaves the fleet at once: only a frozen or crashed one holds flips up.
        environment.lifecycle().manage(new Managed() {
            @Override
            public void stop() {
                fleet.leave();
            }
        });
        environment
                .servlets()
                .addFilter("fleet-traffic", new TrafficCounter(environment.metrics()))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        return fleet;
    }
}
