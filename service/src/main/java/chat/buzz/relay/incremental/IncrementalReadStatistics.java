package chat.buzz.relay.incremental;

/**
 * Counts, per community, what incremental reads answered that operators watch for bursts:
 * resets served, capacity rejections and statement timeouts; and the entries sent for each channel
 * policy change delivered as entries (PROTOCOL 4.4), beside the resets they replace.
 */
public interface IncrementalReadStatistics {
    IncrementalReadStatistics NONE = new IncrementalReadStatistics() {
        @Override
        public void resetServed(long communityId) {}

        @Override
        public void capacityRejected(long communityId) {}

        @Override
        public void timedOut(long communityId) {}

        @Override
        public void policyChangeEntriesSent(long communityId, long changedMicros, long entries) {}
    };

    void resetServed(long communityId);

    void capacityRejected(long communityId);

    void timedOut(long communityId);

    /** {@code entries} were sent for the community's policy change recorded at {@code changedMicros}. */
    void policyChangeEntriesSent(long communityId, long changedMicros, long entries);
}
