package chat.buzz.relay.sync;

import java.util.ArrayDeque;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A bulk stream (a snapshot, or what a grant or a lost membership sends) as a continuation: each
 * {@link #step} reads at most one keyset chunk and queues what fits; on a full queue it parks and
 * gives its worker back, and the stream goes on when the client has read half of its queue. No
 * thread ever waits for a client, and rows read but not yet queued are at most one chunk. Only the
 * subscription's serial run steps it, so it needs no lock.
 */
final class BulkStream {
    enum Progress {
        /** A chunk was read and queued: call again (after other work has had its turn). */
        MORE,
        /** The queue is full; the target resumes the stream once it has drained. */
        PARKED,
        FINISHED,
        /** The subscription or the connection ended. */
        STOPPED
    }

    /**
     * A row of a keyset chunk, already turned into the frame it becomes; {@code d} is its keyset position
     * and the artifact it speaks of, {@code removal} whether it says the artifact left the reader's D.
     */
    record Framed(UUID d, String frame, boolean removal) {
        static Framed upsert(UUID d, String frame) {
            return new Framed(d, frame, false);
        }

        static Framed removal(UUID d, String frame) {
            return new Framed(d, frame, true);
        }
    }

    /** One keyset chunk of rows after {@code after} (null: from the start), ordered by d. */
    interface Part {
        List<Framed> read(UUID after, int size);
    }

    /** Frames already read and judged, handed out in their order, {@code size} at a time. */
    static Part of(List<Framed> framed) {
        return new Part() {
            private int next;

            @Override
            public List<Framed> read(UUID after, int size) {
                List<Framed> chunk = framed.subList(next, Math.min(framed.size(), next + size));
                next += chunk.size();
                return chunk;
            }
        };
    }

    /** Where the frames go: a subscription's lane of its connection's outbox. */
    interface Target {
        Outbox.Offered offer(String frame);

        /** @return false when there is room already */
        boolean park();
    }

    /**
     * A subscription's lane: a full queue parks the stream until the outbox has drained, and then
     * {@code drained} runs (it posts to the subscription, which goes on with the stream).
     */
    record LaneTarget(Outbox outbox, Outbox.Lane lane, SyncMetrics metrics, Runnable drained) implements Target {
        @Override
        public Outbox.Offered offer(String frame) {
            return outbox.offer(lane, frame);
        }

        @Override
        public boolean park() {
            metrics.parked();
            if (!outbox.parkUntilDrained(drained)) {
                metrics.unparked();
                return false;
            }
            return true;
        }
    }

    private final ArrayDeque<Part> parts;
    private final String last;
    private final int chunkSize;
    private final ArrayDeque<String> ready = new ArrayDeque<>();
    private Predicate<Framed> admit = framed -> true;
    private UUID after;

    /** @param last a frame sent after every part (EOSE), or null */
    BulkStream(List<Part> parts, String last, int chunkSize) {
        this.parts = new ArrayDeque<>(parts);
        this.last = last;
        this.chunkSize = chunkSize;
        if (parts.isEmpty() && last != null) {
            ready.add(last);
        }
    }

    /** Only the rows {@code admit} lets through become frames; the keyset walks past the others. */
    BulkStream admitting(Predicate<Framed> admit) {
        this.admit = admit;
        return this;
    }

    Progress step(Target target) {
        boolean readAChunk = false;
        while (true) {
            while (!ready.isEmpty()) {
                switch (target.offer(ready.peek())) {
                    case QUEUED -> ready.poll();
                    case SHUT -> {
                        return Progress.STOPPED;
                    }
                    case FULL -> {
                        if (target.park()) {
                            return Progress.PARKED;
                        }
                    }
                }
            }
            if (parts.isEmpty()) {
                return Progress.FINISHED;
            }
            if (readAChunk) {
                return Progress.MORE;
            }
            readChunk();
            readAChunk = true;
        }
    }

    private void readChunk() {
        Part part = parts.peek();
        List<Framed> rows = part.read(after, chunkSize);
        rows.stream().filter(admit).forEach(row -> ready.add(row.frame()));
        if (rows.size() < chunkSize) {
            parts.poll();
            after = null;
            if (parts.isEmpty() && last != null) {
                ready.add(last);
            }
        } else {
            after = rows.get(rows.size() - 1).d();
        }
    }
}
