package chat.buzz.relay.sync;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The bounded queue of frames waiting for one connection, with at most one write in flight.
 * Nothing here ever grows past its limits: a full queue either makes a bulk producer wait
 * ({@link #put}) or tells the caller to give up on the client ({@link #offer} returns false).
 */
final class Outbox {
    /** Where frames go: the WebSocket session. {@code done} gets null on success. */
    interface Sink {
        void send(String frame, Consumer<Throwable> done);

        void close(String reason);

        void ping();
    }

    private final Sink sink;
    private final int maxFrames;
    private final long maxChars;
    private final ArrayDeque<String> queue = new ArrayDeque<>();
    private long queuedChars;
    private boolean inFlight;
    private boolean closing;
    private String closeReason;

    Outbox(Sink sink, int maxFrames, long maxChars) {
        this.sink = sink;
        this.maxFrames = maxFrames;
        this.maxChars = maxChars;
    }

    /** @return false when the queue is full or the connection is going away; nothing was queued */
    boolean offer(String frame) {
        synchronized (this) {
            if (closing || !hasRoom(frame)) {
                return false;
            }
            enqueue(frame);
        }
        pump();
        return true;
    }

    /**
     * Waits for room, up to {@code timeoutMillis}, then queues.
     *
     * @return false on timeout or when the connection is going away
     */
    synchronized boolean awaitRoom(String frame, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!closing && !hasRoom(frame)) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return !closing;
    }

    /** Drops whatever is queued, sends {@code lastWords} and closes once it is written. */
    void closeAfter(String lastWords, String reason) {
        synchronized (this) {
            if (closing) {
                return;
            }
            queue.clear();
            queuedChars = 0;
            enqueue(lastWords);
            closing = true;
            closeReason = reason;
            notifyAll();
        }
        pump();
    }

    synchronized void abandon() {
        closing = true;
        queue.clear();
        queuedChars = 0;
        notifyAll();
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
        return queue.isEmpty() || (queue.size() < maxFrames && queuedChars + frame.length() <= maxChars);
    }

    private void enqueue(String frame) {
        queue.add(frame);
        queuedChars += frame.length();
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
                next = queue.poll();
                closeNow = next == null && closing && closeReason != null;
                if (next == null && !closeNow) {
                    return;
                }
                if (next != null) {
                    queuedChars -= next.length();
                    inFlight = true;
                    notifyAll();
                }
            }
            if (closeNow) {
                String reason;
                synchronized (this) {
                    reason = closeReason;
                    closeReason = null;
                }
                if (reason != null) {
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
                        queue.clear();
                        queuedChars = 0;
                        closeReason = null;
                    }
                    notifyAll();
                }
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
