package chat.buzz.relay.fleet;

import chat.buzz.relay.admin.AdminConfig;
import chat.buzz.relay.gate.FlagService;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dropwizard.core.setup.Environment;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Jdbi;

/** Every instance beats into the database; the admin port lists the fleet from there. */
public final class FleetFeature {
    private FleetFeature() {}

    public static Fleet register(Environment environment, Jdbi jdbi, String instanceId, FlagService gates,
                                 BooleanSupplier changeFeedConnected, AdminConfig admin,
                                 ScheduledExecutorService scheduler) {
        Fleet fleet = new Fleet(jdbi, instanceId, InstanceName.hostName(), gates, changeFeedConnected,
                environment.metrics(), admin.getHeartbeat().toJavaDuration(), admin.getForgetInstanceAfter().toJavaDuration());
        fleet.beatEvery(scheduler);
        environment.admin().addServlet("instances", new InstancesServlet(fleet,
                environment.getObjectMapper().copy().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)))
                .addMapping(InstancesServlet.PATH);
        return fleet;
    }
}
