package chat.buzz.relay.sync;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Live work this instance has in hand: changes heard and not yet handed out, and live tasks of
 * subscriptions past EOSE queued or running. While there is any, the stream workers start at most one
 * snapshot or grant chunk at a time ({@link FairWorkers#FLOOR_WHILE_LIVE_WAITS}), so a herd's snapshots
 * cannot take the CPU and the database from a live frame; once it is all done they run at full width
 * again. Live work is short (one query per change, a few queued frames), so snapshots lose little.
 */
final class LiveDemand {
    private final AtomicInteger pending = new AtomicInteger();
    private volatile Runnable whenIdle = () -> {};

    /** Runs on the thread that finished the last live work; it must only schedule. */
    void whenIdle(Runnable resume) {
        this.whenIdle = resume;
    }

    void arrived() {
        pending.incrementAndGet();
    }

    void done() {
        if (pending.decrementAndGet() == 0) {
            whenIdle.run();
        }
    }

    boolean waiting() {
        return pending.get() > 0;
    }

    /** {@code task} counted as live work from now until it has run. */
    Runnable counted(Runnable task) {
        arrived();
        return () -> {
            try {
                task.run();
            } finally {
                done();
            }
        };
    }
}
