package chat.buzz.relay.sync;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sync worker pool, shared fairly: tasks are queued per owner (a pubkey) and owners take turns; no
 * owner runs more than {@code perOwner} tasks at once and no address (the group a task comes from)
 * more than {@code perAddress}, so neither one pubkey with many connections nor many fresh pubkeys
 * from one address can occupy every worker. Tasks are short (one query and some queueing); none waits
 * for a client. The queues and counts have one lock, this object's, held only to pick or release a
 * task, never while one runs: the pool is the scheduler, and an owner thread for it would be a
 * scheduler for the scheduler. A pool given a {@link LiveDemand} is the stream pool: it yields to live work (see there).
 */
final class FairWorkers {
    /** Stream tasks started at once while live work waits: one, so snapshots never starve under steady writes. */
    static final int FLOOR_WHILE_LIVE_WAITS = 1;

    private static final Logger LOG = LoggerFactory.getLogger(FairWorkers.class);

    private record Task(String address, Runnable work) {}

    private final Executor threads;
    private final int size;
    private final int perOwner;
    private final int perAddress;
    private final LiveDemand yieldTo;
    private final Map<String, ArrayDeque<Task>> waiting = new HashMap<>();
    /** Owners with waiting tasks, in the order they get their next turn. */
    private final ArrayDeque<String> turns = new ArrayDeque<>();

    private final Map<String, Integer> runningByOwner = new HashMap<>();
    private final Map<String, Integer> runningByAddress = new HashMap<>();
    private int running;
    private int queued;

    /** @param threads runs at most {@code size} tasks at once here, so its own queue stays empty */
    FairWorkers(Executor threads, int size, int perOwner, int perAddress) {
        this(threads, size, perOwner, perAddress, null);
    }

    /** @param yieldTo live work this pool gives way to, or null for a pool that never yields */
    FairWorkers(Executor threads, int size, int perOwner, int perAddress, LiveDemand yieldTo) {
        this.threads = threads;
        this.yieldTo = yieldTo;
        this.size = size;
        this.perOwner = Math.max(1, Math.min(perOwner, size));
        this.perAddress = Math.max(1, Math.min(perAddress, size));
    }

    void submit(String address, String owner, Runnable task) {
        synchronized (this) {
            ArrayDeque<Task> queue = waiting.computeIfAbsent(owner, o -> new ArrayDeque<>());
            if (queue.isEmpty()) {
                turns.add(owner);
            }
            queue.add(new Task(address, task));
            queued++;
        }
        dispatch();
    }

    synchronized int running() {
        return running;
    }

    synchronized int waiting() {
        return queued;
    }

    /** Starts what may start now; the live demand calls this once live work is done. */
    void dispatch() {
        List<Runnable> start = new ArrayList<>();
        synchronized (this) {
            while (running < width()) {
                Runnable next = nextTurn();
                if (next == null) {
                    break;
                }
                start.add(next);
            }
        }
        for (Runnable task : start) {
            try {
                threads.execute(task);
            } catch (RejectedExecutionException e) {
                LOG.debug("Sync workers are shutting down; a task was dropped", e);
            }
        }
    }

    private int width() {
        return yieldTo != null && yieldTo.waiting() ? Math.min(size, FLOOR_WHILE_LIVE_WAITS) : size;
    }

    /**
     * The next task of the first owner in line who, with its task's address, is under its limits; that
     * owner goes to the back.
     */
    private Runnable nextTurn() {
        for (int i = turns.size(); i > 0; i--) {
            String owner = turns.poll();
            ArrayDeque<Task> queue = waiting.get(owner);
            if (runningByOwner.getOrDefault(owner, 0) >= perOwner
                    || runningByAddress.getOrDefault(queue.peek().address(), 0) >= perAddress) {
                turns.add(owner);
                continue;
            }
            Task task = queue.poll();
            if (queue.isEmpty()) {
                waiting.remove(owner);
            } else {
                turns.add(owner);
            }
            queued--;
            running++;
            runningByOwner.merge(owner, 1, Integer::sum);
            runningByAddress.merge(task.address(), 1, Integer::sum);
            return () -> runThenRelease(owner, task);
        }
        return null;
    }

    private void runThenRelease(String owner, Task task) {
        try {
            task.work().run();
        } catch (RuntimeException e) {
            LOG.warn("A sync task failed", e);
        } finally {
            synchronized (this) {
                running--;
                runningByOwner.computeIfPresent(owner, (o, n) -> n <= 1 ? null : n - 1);
                runningByAddress.computeIfPresent(task.address(), (a, n) -> n <= 1 ? null : n - 1);
            }
            dispatch();
        }
    }
}
