package chat.buzz.relay.gate;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.util.Duration;
import java.util.concurrent.ScheduledExecutorService;
import org.jdbi.v3.core.Jdbi;

/** Feature flags: configured defaults, database overrides reread on a schedule, one gauge per gate. */
public final class GateFeature {
    private GateFeature() {}

    public static DatabaseGates register(
            Environment environment,
            Jdbi jdbi,
            GatesConfig defaults,
            GatePreconditions preconditions,
            Duration refresh,
            ScheduledExecutorService scheduler) {
        DatabaseGates gates = new DatabaseGates(jdbi, defaults, preconditions);
        gates.registerMetrics(environment.metrics());
        gates.refreshEvery(scheduler, refresh.toMilliseconds());
        return gates;
    }
}
