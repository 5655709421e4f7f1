package chat.buzz.relay.database;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;

/**
 * How a job that runs on its own (a refresh, a heartbeat, a flush, the change feed) tells the log that it
 * failed: a {@link DatabaseFault} in one line with its kind, once until the job succeeds again, so an
 * outage is not a stack trace per run; anything else, a bug, with its stack trace every time.
 */
public final class BackgroundFailures {
    private final Logger log;
    private final String what;
    private final AtomicBoolean faulting = new AtomicBoolean();

    /** @param what the log's words for the failure, e.g. "Could not reread feature flags; keeping ..." */
    public BackgroundFailures(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    public void failed(Throwable e) {
        Optional<DatabaseFault> fault = DatabaseFaults.classify(e);
        if (fault.isEmpty()) {
            log.warn(what, e);
        } else if (faulting.compareAndSet(false, true)) {
            log.warn(
                    "{} (the database is unavailable: {}; {}); once until it works again",
                    what,
                    fault.get().description(),
                    DatabaseOutage.describe(e));
        }
    }

    public void succeeded() {
        faulting.set(false);
    }
}
