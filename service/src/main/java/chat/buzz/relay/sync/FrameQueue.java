package chat.buzz.relay.sync;

import java.util.ArrayDeque;

/**
 * Frames waiting in order, with their total length in characters. Not thread-safe: an {@link Outbox}
 * holds its queues under its one lock.
 */
final class FrameQueue {
    private final ArrayDeque<String> frames = new ArrayDeque<>();
    private long chars;

    void add(String frame) {
        frames.add(frame);
        chars += frame.length();
    }

    /** The first frame, taken off the queue, or null. */
    String poll() {
        String frame = frames.poll();
        if (frame != null) {
            chars -= frame.length();
        }
        return frame;
    }

    boolean isEmpty() {
        return frames.isEmpty();
    }

    int size() {
        return frames.size();
    }

    long chars() {
        return chars;
    }

    void clear() {
        frames.clear();
        chars = 0;
    }
}
