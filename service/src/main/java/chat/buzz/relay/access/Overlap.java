package chat.buzz.relay.access;

/**
 * The incremental overlap (PROTOCOL 4.2): how late a change's commit may become visible after its
 * stamp. Kept in one unit, microseconds of database time (operators configure it in seconds); an
 * incremental session and a sync subscription both take the start of the window they answer for from
 * here, and their removal floor from {@link Judge#floor}.
 */
public record Overlap(long micros) {
    public static Overlap ofSeconds(long seconds) {
        return new Overlap(seconds * 1_000_000L);
    }

    /** The start of the window a reader answers for when it starts (or resumes) at {@code startMicros}. */
    public long windowStart(long startMicros) {
        return startMicros - micros;
    }
}
