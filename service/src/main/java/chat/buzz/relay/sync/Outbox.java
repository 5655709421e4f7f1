package chat.buzz.relay.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The bounded queue of frames waiting for one connection, with at most one write in flight.
 * Nothing here ever grows past its limits and nothing here ever blocks: a full queue either makes a
 * bulk producer park until the queue has drained to half ({@link #parkUntilDrained}) or tells the
 * caller to give up on the client ({@link #offer} returns false).
 *
 * <p>Answers to the client's own messages ({@link #offerReply}) wait in a second queue, bounded by
 * characters and written first: a client that sends many requests while its subscriptions' snapshots fill the main
 * queue reads its answers promptly, and they never count as frames it failed to read.
 *
 * <p>One lock, this object's, guards both queues, the write in flight, the parked producers and the
 * lanes: a write completes on Jetty's thread and must start the next one at once, so an owner thread
 * (one per connection, or one for all) would add a thread hop to every frame. The lock is held only for
 * queue operations, never across a send, a close or a resumed producer.
 */
final class Outbox {
    /** Where frames go: the WebSocket session. {@code done} gets null on success. */
    interface Sink {
        void send(String frame, Consumer<Throwable> done);

        void close(String reason);

        /** Closes as an instance that is stopping does (WebSocket 1001): the client reconnects at once. */
        void goAway(String reason);

        void ping();
    }

    private final Sink sink;
    private final int maxFrames;
    private final long maxChars;
    private final int reservedFrames;
    // All guarded by this outbox's one lock (see the class comment).
    private final FrameQueue queue = new FrameQueue();
    private final FrameQueue replies = new FrameQueue();
    private final List<Runnable> parked = new ArrayList<>();
    private boolean inFlight;
    private boolean closing;
    private String closeReason;
    private boolean closeGoingAway;

    /** @param reservedFrames extra room for {@link #offerLastWord}: one per subscription slot */
    Outbox(Sink sink, int maxFrames, long maxChars, int reservedFrames) {
        this.sink = sink;
        this.maxFrames = maxFrames;
        this.maxChars = maxChars;
        this.reservedFrames = reservedFrames;
    }

    /** @return false when the queue is full or the connection is going away; nothing was queued */
    boolean offer(String frame) {
        synchronized (this) {
            if (closing || !hasRoom(frame)) {
                return false;
            }
            queue.add(frame);
        }
        pump();
        return true;
    }

    /**
     * An answer to a message the client sent (OK, NOTICE, or the CLOSED of a REQ that started nothing),
     * sent before the frames of subscriptions. Answers are small, so they are bounded by the character
     * limit alone, on their own: a client may send a burst of a thousand requests while its snapshots
     * fill the socket, but one that sends megabytes of them without reading the answers is too slow.
     *
     * @return false when the answers waiting already reach the limit or the connection is going away
     */
    boolean offerReply(String frame) {
        synchronized (this) {
            if (closing || (!replies.isEmpty() && replies.chars() + frame.length() > maxChars)) {
                return false;
            }
            replies.add(frame);
        }
        pump();
        return true;
    }

    /**
     * A subscription's right to queue frames. Shutting it and queueing through it take the outbox's
     * lock, so once {@link #shut} (or {@link #offerLastWord}) returns, nothing more of that
     * subscription is queued: no frame follows its CLOSED, and none of an old subscription follows a
     * CLOSE or a REQ that reuses its id.
     */
    static final class Lane {
        /** Guarded by the outbox. */
        private boolean open = true;
    }

    enum Offered {
        QUEUED,
        FULL,
        /** The lane was shut or the connection is going away: nothing was queued and nothing will be. */
        SHUT
    }

    Lane lane() {
        return new Lane();
    }

    /** A frame of a subscription, behind the frames queued before it. */
    Offered offer(Lane lane, String frame) {
        synchronized (this) {
            if (closing || !lane.open) {
                return Offered.SHUT;
            }
            if (!hasRoom(frame)) {
                return Offered.FULL;
            }
            queue.add(frame);
        }
        pump();
        return Offered.QUEUED;
    }

    /**
     * A subscription's CLOSED, which shuts its lane. It may use the reserve past the frame limit: a client
     * that stopped reading in the middle of a snapshot still learns why it ended, and the reserve keeps
     * the queue bounded.
     */
    Offered offerLastWord(Lane lane, String frame) {
        synchronized (this) {
            if (closing || !lane.open) {
                return Offered.SHUT;
            }
            lane.open = false;
            if (!hasRoom(frame) && queue.size() >= maxFrames + reservedFrames) {
                return Offered.FULL;
            }
            queue.add(frame);
        }
        pump();
        return Offered.QUEUED;
    }

    /** Nothing more of this lane is queued once this returns. */
    synchronized void shut(Lane lane) {
        lane.open = false;
    }

    /**
     * Has {@code resume} run once the queue has drained to half its limits, or once the connection is
     * going away; the caller then returns its thread instead of waiting.
     *
     * @return false when there is room already (nothing was registered)
     */
    boolean parkUntilDrained(Runnable resume) {
        synchronized (this) {
            if (closing || drained()) {
                return false;
            }
            parked.add(resume);
            return true;
        }
    }

    /** @return true when {@code resume} was still parked and will now never run */
    synchronized boolean unpark(Runnable resume) {
        return parked.remove(resume);
    }

    /** Drops whatever is queued, sends {@code lastWords} and closes once it is written. */
    void closeAfter(String lastWords, String reason) {
        closeAfter(lastWords, reason, false);
    }

    /** As {@link #closeAfter}, closing as a stopping instance does, so the client reconnects elsewhere at once. */
    void goAwayAfter(String lastWords, String reason) {
        closeAfter(lastWords, reason, true);
    }

    private void closeAfter(String lastWords, String reason, boolean goingAway) {
        synchronized (this) {
            if (closing) {
                return;
            }
            clear();
            queue.add(lastWords);
            closing = true;
            closeReason = reason;
            closeGoingAway = goingAway;
        }
        wake();
        pump();
    }

    void abandon() {
        synchronized (this) {
            closing = true;
            clear();
        }
        wake();
    }

    private void clear() {
        queue.clear();
        replies.clear();
    }

    /** Pings go straight to the socket: they are tiny and must not wait behind a full queue. */
    void ping() {
        if (!isClosing()) {
            sink.ping();
        }
    }

    synchronized boolean isClosing() {
        return closing;
    }

    private boolean hasRoom(String frame) {
        // One frame always fits in an empty queue, whatever its size, or a large head could never go out.
        return queue.isEmpty() || (queue.size() < maxFrames && queue.chars() + frame.length() <= maxChars);
    }

    private boolean drained() {
        return queue.size() <= maxFrames / 2 && queue.chars() <= maxChars / 2;
    }

    /** Resumes every parked producer; each only schedules work, so this is cheap on any thread. */
    private void wake() {
        List<Runnable> resume;
        synchronized (this) {
            if (parked.isEmpty() || !(closing || drained())) {
                return;
            }
            resume = List.copyOf(parked);
            parked.clear();
        }
        resume.forEach(Runnable::run);
    }

    /**
     * Starts the next write unless one is in flight. A write that completes on the calling thread
     * loops here instead of recursing, so a fast client cannot grow the stack.
     */
    private void pump() {
        while (true) {
            String next;
            boolean closeNow;
            synchronized (this) {
                if (inFlight) {
                    return;
                }
                next = replies.isEmpty() ? queue.poll() : replies.poll();
                closeNow = next == null && closing && closeReason != null;
                if (next == null && !closeNow) {
                    return;
                }
                if (next != null) {
                    inFlight = true;
                }
            }
            wake();
            if (closeNow) {
                String reason;
                boolean goingAway;
                synchronized (this) {
                    reason = closeReason;
                    goingAway = closeGoingAway;
                    closeReason = null;
                }
                if (reason != null && goingAway) {
                    sink.goAway(reason);
                } else if (reason != null) {
                    sink.close(reason);
                }
                return;
            }
            // 0: write started; 1: completed before send() returned; 2: send() returned first.
            AtomicInteger state = new AtomicInteger();
            sink.send(next, error -> {
                synchronized (this) {
                    inFlight = false;
                    if (error != null) {
                        closing = true;
                        clear();
                        closeReason = null;
                    }
                }
                wake();
                if (!state.compareAndSet(0, 1)) {
                    pump();
                }
            });
            if (state.compareAndSet(0, 2)) {
                return;
            }
        }
    }
}
