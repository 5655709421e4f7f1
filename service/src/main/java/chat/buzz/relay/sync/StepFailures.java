package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.database.DatabaseFaults;
import chat.buzz.relay.database.DatabaseOutage;
import chat.buzz.relay.database.ReadTransaction;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a subscription's failed step means: retried a second later, or the CLOSED that ends it.
 *
 * <p>A live subscription outlasts a short database outage: the change it could not judge stays first
 * in line and the same step runs again a second later, for up to {@link #OUTAGE_PATIENCE_SECONDS}.
 * Ending it instead would leave a client that only knows PROTOCOL 5 (which resubscribes on sync_reset
 * alone) without live updates; the change feed's reconnect resets every subscription anyway when the
 * outage cut the feed too. A subscription still in its snapshot fails at once.
 */
final class StepFailures {
    private static final Logger LOG = LoggerFactory.getLogger(StepFailures.class);

    /** How long a live subscription waits for an unreachable database before it ends. */
    static final long OUTAGE_PATIENCE_SECONDS = 30;

    private final DatabaseOutage outage;
    private final SyncMetrics metrics;
    /** When this subscription's steps began to fail for an unreachable database (0: they do not). */
    private long unreachableSinceNanos;

    StepFailures(DatabaseOutage outage, SyncMetrics metrics) {
        this.outage = outage;
        this.metrics = metrics;
    }

    /** A step succeeded: the next outage starts its patience afresh. */
    void succeeded() {
        unreachableSinceNanos = 0;
        outage.served();
    }

    /** @return true when the step should run again a second from now; otherwise call {@link #closing} */
    boolean retry(RuntimeException e, boolean live) {
        if (!live || e instanceof ReadTransaction.OverBudget || !DatabaseFaults.isFault(e)) {
            return false;
        }
        long now = System.nanoTime();
        if (unreachableSinceNanos == 0) {
            unreachableSinceNanos = now;
        } else if (now - unreachableSinceNanos > TimeUnit.SECONDS.toNanos(OUTAGE_PATIENCE_SECONDS)) {
            return false;
        }
        outage.turnedAway(e);
        return true;
    }

    /** The message of the CLOSED that ends the subscription. */
    String closing(RuntimeException e) {
        if (e instanceof ReadTransaction.OverBudget) {
            metrics.statementTimedOut();
            return ErrorCodes.ERROR_PREFIX
                    + "a sync query ran over the relay's time budget; subscribe again later, or with a narrower #h";
        }
        if (DatabaseFaults.isFault(e)) {
            outage.turnedAway(e);
            return ErrorCodes.ERROR_PREFIX + "the database is unavailable; subscribe again in a few seconds";
        }
        LOG.warn("Sync subscription failed", e);
        return ErrorCodes.ERROR_PREFIX + "the relay could not serve this subscription; subscribe again";
    }
}
