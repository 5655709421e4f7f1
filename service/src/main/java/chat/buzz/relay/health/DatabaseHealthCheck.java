package chat.buzz.relay.health;

import chat.buzz.relay.database.DatabaseFault;
import chat.buzz.relay.database.DatabaseFaults;
import chat.buzz.relay.database.DatabaseOutage;
import com.codahale.metrics.health.HealthCheck;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * The database on the operator's /healthcheck, in place of Dropwizard's own check of the pool: healthy
 * only when a connection answers and accepts writes, and the relay is not turning requests away for a
 * database fault. A fault is told by its kind, the way the relay's
 * log names it, and never with the driver's exception (Dropwizard would print its stack trace into
 * every answer).
 */
public final class DatabaseHealthCheck extends HealthCheck {
    /** The name Dropwizard gives the pool's check, kept so monitors that watch it go on working. */
    public static final String NAME = "postgresql";

    private static final int QUERY_TIMEOUT_SECONDS = 2;

    private final Jdbi jdbi;
    private final DatabaseOutage outage;
    /** The fault the last check found, for the answer's status (see {@link HealthStatusFilter}). */
    private volatile Optional<DatabaseFault> lastFault = Optional.empty();

    public DatabaseHealthCheck(Jdbi jdbi, DatabaseOutage outage) {
        this.jdbi = jdbi;
        this.outage = outage;
    }

    @Override
    protected Result check() {
        boolean readOnly;
        try {
            readOnly = jdbi.withHandle(handle -> handle.createQuery(
                            "/* buzz-relay health check */ SELECT current_setting('transaction_read_only') = 'on'")
                    .setQueryTimeout(QUERY_TIMEOUT_SECONDS)
                    .mapTo(Boolean.class)
                    .one());
        } catch (RuntimeException e) {
            Optional<DatabaseFault> fault = DatabaseFaults.classify(e);
            lastFault = fault;
            if (fault.isEmpty()) {
                throw e;
            }
            outage.turnedAway(e);
            return unhealthy(fault.get());
        }
        if (readOnly) {
            lastFault = Optional.of(DatabaseFault.READ_ONLY);
            return unhealthy(DatabaseFault.READ_ONLY);
        }
        // The probe got through, but requests may still be turned away (statements that time out, say):
        // the check is healthy only once the relay's own outage is over.
        outage.served();
        lastFault = outage.ongoing();
        if (lastFault.isPresent()) {
            return unhealthy(lastFault.get());
        }
        return Result.healthy("the database answers and accepts writes");
    }

    Optional<DatabaseFault> lastFault() {
        return lastFault;
    }

    private static Result unhealthy(DatabaseFault fault) {
        return Result.builder()
                .unhealthy()
                .withMessage("the database is unavailable: " + fault.description() + "; the relay's log has the cause")
                .withDetail("fault", fault.name().toLowerCase(java.util.Locale.ROOT))
                .build();
    }
}
