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
 * The sync worker pool, shared fairly: tasks are queued per owner (a pubkey) and owners take turns,
 * and no owner runs more than {@code perOwner} tasks at once, so one pubkey with many connections
 * cannot occupy every worker. Tasks are short (one query and some queueing); none waits for a client.
 */
final class FairWorkers {
    private static final Logger LOG = LoggerFactory.getLogger(FairWorkers.class);

    private final Executor threads;
    private final int size;
    private final int perOwner;
    private final Map<String, ArrayDeque<Runnable>> waiting = new HashMap<>();
    /** Owners with waiting tasks, in the order they get their next turn. */
    private final ArrayDeque<String> turns = new ArrayDeque<>();

    private final Map<String, Integer> runningByOwner = new HashMap<>();
    private int running;

    /** @param threads runs at most {@code size} tasks at once here, so its own queue stays empty */
    FairWorkers(Executor threads, int size, int perOwner) {
        this.threads = threads;
        this.size = size;
        this.perOwner = Math.max(1, Math.min(perOwner, size));
    }

    void submit(String owner, Runnable task) {
        synchronized (this) {
            ArrayDeque<Runnable> queue = waiting.computeIfAbsent(owner, o -> new ArrayDeque<>());
            if (queue.isEmpty()) {
                turns.add(owner);
            }
            queue.add(task);
        }
        dispatch();
    }

    synchronized int running() {
        return running;
    }

    synchronized int waiting() {
        return waiting.values().stream().mapToInt(ArrayDeque::size).sum();
    }

    private void dispatch() {
        List<Runnable> start = new ArrayList<>();
        synchronized (this) {
            while (running < size) {
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

    /** The next task of the first owner in line who is under its limit; that owner goes to the back. */
    private Runnable nextTurn() {
        for (int i = turns.size(); i > 0; i--) {
            String owner = turns.poll();
            if (runningByOwner.getOrDefault(owner, 0) >= perOwner) {
                turns.add(owner);
                continue;
            }
            ArrayDeque<Runnable> queue = waiting.get(owner);
            Runnable task = queue.poll();
            if (queue.isEmpty()) {
                waiting.remove(owner);
            } else {
                turns.add(owner);
            }
            running++;
            runningByOwner.merge(owner, 1, Integer::sum);
            return () -> runThenRelease(owner, task);
        }
        return null;
    }

    private void runThenRelease(String owner, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.warn("A sync task failed", e);
        } finally {
            synchronized (this) {
                running--;
                runningByOwner.computeIfPresent(owner, (o, n) -> n <= 1 ? null : n - 1);
            }
            dispatch();
        }
    }
}
