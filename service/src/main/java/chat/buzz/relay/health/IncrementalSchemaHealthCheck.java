package chat.buzz.relay.health;

import com.codahale.metrics.health.HealthCheck;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The incremental schema's state on the operator's /healthcheck, apart from readiness: a schema rolled
 * back to before-incremental is healthy while the gate is off (every instance serves without it), and
 * unhealthy only when the gate is on without the changesets it needs.
 */
public final class IncrementalSchemaHealthCheck extends HealthCheck {
    public static final String NAME = "incremental-schema";

    private final Readiness readiness;
    private final BooleanSupplier incrementalEnabled;

    public IncrementalSchemaHealthCheck(Readiness readiness, BooleanSupplier incrementalEnabled) {
        this.readiness = readiness;
        this.incrementalEnabled = incrementalEnabled;
    }

    @Override
    protected Result check() {
        List<String> pending = readiness.incrementalPending();
        if (pending.isEmpty()) {
            return Result.healthy("every incremental changeset is applied");
        }
        String state = pending.size() + " incremental changesets pending (first: " + pending.get(0) + ")";
        return incrementalEnabled.getAsBoolean()
                ? Result.unhealthy(state + ", yet the incremental gate is on: migrate forward (runbook 01) or turn "
                        + "the gate off (runbook 06)")
                : Result.healthy(state + "; the incremental gate is off, so this instance serves without them");
    }
}
