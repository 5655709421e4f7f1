package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.changes.Change;
import java.util.ArrayDeque;
import java.util.List;

/**
 * A subscription's mailbox: every other thread (the fan-out, the session, timers, the outbox) only
 * posts typed messages here, and the subscription reads them on its own serial run. At most one run
 * is submitted or running at a time, so the subscription's state is touched by one thread at a time
 * and needs no lock of its own. Signals come before changes and may wake a subscription that is
 * waiting; changes wake only one that is idle and live.
 *
 * <p>The inbox itself has one lock, its own: it is the hand-off between many posting threads and the
 * one run, and an owner thread for it would need a queue of its own, guarded the same way. The lock
 * covers only the queues and the schedule flag; the runner is called after it is released.
 */
final class Inbox {
    /** A message that steers the subscription, read before any change. */
    sealed interface Signal permits Close, Cancel, SnapshotOverdue, Drained, Retry {}

    /** End with {@code ["CLOSED", id, message]}. */
    record Close(String message) implements Signal {}

    /** End without a word: the client sent CLOSE, reused the id, or went away. */
    record Cancel() implements Signal {}

    /** The snapshot's time limit passed. */
    record SnapshotOverdue() implements Signal {}

    /** The connection's queue has drained: a parked stream goes on. */
    record Drained() implements Signal {}

    /** The database was unreachable a moment ago: try the same step again. */
    record Retry() implements Signal {}

    /**
     * A committed change; {@code judged} is what the fan-out already judged and rendered for this
     * subscription (a head change's one frame, a policy change's entries), or null when the subscription
     * judges the change itself.
     */
    record Queued(Change change, List<BulkStream.Framed> judged) {}

    /** What may start the next run once this one ends. */
    enum Wake {
        /** Run again now, after other work has had its turn (a bulk stream yields after each chunk). */
        AGAIN,
        /** Idle: a signal or a change. */
        ANY,
        /** Waiting (a snapshot or stream in progress, a full queue, the database): signals only. */
        SIGNAL,
        /** Ended: nothing; whatever is posted from now on is dropped. */
        NEVER
    }

    /** Submits the subscription's next run; {@code ending} when it will only end the subscription. */
    interface Runner {
        void submit(boolean ending);
    }

    static final String OVERFLOW =
            ErrorCodes.SYNC_RESET_PREFIX + "too many changes waiting for this subscription; subscribe again";

    private final int changeLimit;
    private final Runner runner;
    private final ArrayDeque<Signal> signals = new ArrayDeque<>();
    private final ArrayDeque<Queued> changes = new ArrayDeque<>();
    /** A run is submitted or running. The first one is the subscription's own to submit when it starts. */
    private boolean scheduled = true;

    private Wake wake = Wake.ANY;
    private boolean overflowed;

    Inbox(int changeLimit, Runner runner) {
        this.changeLimit = changeLimit;
        this.runner = runner;
    }

    /** Any thread; submits a run when none is submitted or running. */
    void post(Signal signal) {
        boolean run;
        synchronized (this) {
            if (wake == Wake.NEVER) {
                return;
            }
            signals.add(signal);
            run = claim();
        }
        if (run) {
            runner.submit(signal instanceof Close || signal instanceof Cancel);
        }
    }

    /** Any thread; a subscription that has too many changes waiting ends, since its client has fallen behind. */
    void post(Queued change) {
        boolean run;
        synchronized (this) {
            if (wake == Wake.NEVER || overflowed) {
                return;
            }
            overflowed = changes.size() >= changeLimit;
            if (!overflowed) {
                changes.add(change);
            }
            run = !overflowed && wake == Wake.ANY && claim();
        }
        if (overflowed) {
            post(new Close(OVERFLOW));
        } else if (run) {
            runner.submit(false);
        }
    }

    private boolean claim() {
        if (scheduled) {
            return false;
        }
        scheduled = true;
        return true;
    }

    synchronized Signal nextSignal() {
        return signals.poll();
    }

    synchronized boolean hasSignal() {
        return !signals.isEmpty();
    }

    /** The first change waiting; it stays first until {@link #applied}, so a failed step is retried. */
    synchronized Queued nextChange() {
        return changes.peek();
    }

    synchronized void applied(Queued change) {
        if (changes.peek() == change) {
            changes.poll();
        }
    }

    /** The subscription ended: everything waiting and everything posted later is dropped. */
    synchronized void end() {
        wake = Wake.NEVER;
        signals.clear();
        changes.clear();
    }

    /**
     * The run ends, and {@code next} says what may start another.
     *
     * @return true when the caller must submit the next run now
     */
    synchronized boolean finish(Wake next) {
        if (wake == Wake.NEVER) {
            return false;
        }
        if (next == Wake.NEVER) {
            end();
            return false;
        }
        wake = next == Wake.AGAIN ? Wake.SIGNAL : next;
        if (next == Wake.AGAIN || !signals.isEmpty() || (next == Wake.ANY && !changes.isEmpty())) {
            return true;
        }
        scheduled = false;
        return false;
    }
}
