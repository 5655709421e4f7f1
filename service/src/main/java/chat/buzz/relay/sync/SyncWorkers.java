package chat.buzz.relay.sync;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Where sync work runs: bulk streams (snapshots, grants) on their workers, live changes on their own
 * so they never queue behind a stream, and deadlines on one timer thread whose tasks only post. Live
 * work also comes first for the CPU and the database: while any is in hand ({@link LiveDemand}) the
 * stream workers start one chunk at a time.
 */
record SyncWorkers(FairWorkers stream, FairWorkers live, LiveDemand liveDemand, ScheduledExecutorService timers) {
    /** A step of a bulk stream (a snapshot or a grant's), queued fairly by address and pubkey. */
    void submitStream(SyncSession session, Runnable task) {
        stream.submit(session.address(), session.reader(), task);
    }

    /** Live changes of a subscription past its snapshot: their own workers, never behind any stream. */
    void submitLive(SyncSession session, Runnable task) {
        live.submit(session.address(), session.reader(), liveDemand.counted(task));
    }

    ScheduledFuture<?> schedule(Runnable task, long delaySeconds) {
        return timers.schedule(task, delaySeconds, TimeUnit.SECONDS);
    }
}
