package chat.buzz.relay.health;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this instance should get traffic: the database answers within the probe's patience, the
 * schema it needs is recorded, and its change feed (LISTEN) is connected so WebSocket clients get
 * live updates. Why it is not ready goes to the log, never to the unauthenticated caller.
 */
public final class Readiness {
    private static final Logger LOG = LoggerFactory.getLogger(Readiness.class);
    private static final int QUERY_TIMEOUT_SECONDS = 2;

    private final Jdbi jdbi;
    private final Set<String> requiredChangeSets;
    private final BooleanSupplier changeFeedConnected;
    private volatile String lastReason = "";

    public Readiness(Jdbi jdbi, Set<String> requiredChangeSets, BooleanSupplier changeFeedConnected) {
        this.jdbi = jdbi;
        this.requiredChangeSets = Set.copyOf(requiredChangeSets);
        this.changeFeedConnected = changeFeedConnected;
    }

    public boolean isReady() {
        String reason = notReadyReason();
        if (!reason.equals(lastReason)) {
            if (reason.isEmpty()) {
                LOG.info("Ready for traffic");
            } else {
                LOG.warn("Not ready for traffic: {}", reason);
            }
            lastReason = reason;
        }
        return reason.isEmpty();
    }

    private String notReadyReason() {
        if (!changeFeedConnected.getAsBoolean()) {
            return "the change feed (LISTEN) is not connected";
        }
        List<String> recorded;
        try {
            recorded =
                    jdbi.withHandle(handle -> handle.createQuery("SELECT id || '::' || author FROM databasechangelog")
                            .setQueryTimeout(QUERY_TIMEOUT_SECONDS)
                            .mapTo(String.class)
                            .list());
        } catch (RuntimeException e) {
            return "the database did not answer: " + e.getMessage();
        }
        Set<String> missing = new HashSet<>(requiredChangeSets);
        missing.removeAll(recorded);
        return missing.isEmpty()
                ? ""
                : "migrations not applied: " + missing.stream().sorted().toList();
    }
}
