package chat.buzz.relay.incremental;

/**
 * Counts, per community, what incremental reads answered that operators watch for bursts:
 * resets served, capacity rejections and statement timeouts.
 */
public interface SyncStatistics {
    SyncStatistics NONE = new SyncStatistics() {
        @Override
        public void resetServed(long communityId) {}

        @Override
        public void capacityRejected(long communityId) {}

        @Override
        public void timedOut(long communityId) {}
    };

    void resetServed(long communityId);

    void capacityRejected(long communityId);

    void timedOut(long communityId);
}
