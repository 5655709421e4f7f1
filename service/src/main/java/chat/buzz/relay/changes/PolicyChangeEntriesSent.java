package chat.buzz.relay.changes;

/**
 * Counts, for the operations console, the entries a channel policy change delivered as entries
 * (PROTOCOL 4.4) sent to live subscribers, by the history row that names the change. Readers write
 * nothing themselves: the counter keeps the counts and writes them on its own schedule.
 */
public interface PolicyChangeEntriesSent {
    PolicyChangeEntriesSent NONE = (communityId, settingsChange, entries) -> {};

    void sentFor(long communityId, long settingsChange, long entries);
}
