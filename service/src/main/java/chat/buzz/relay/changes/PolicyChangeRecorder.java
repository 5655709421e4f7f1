package chat.buzz.relay.changes;

import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Told, inside the write transaction, when a channel change alters who may discover its artifacts
 * (visibility, unlisted flag, TTL, deletion). The operations console records the cause here
 * ({@code PolicyStampAdvances}). The database keeps the change (channel_settings_history) and advances
 * the policy stamp (communities.artifact_policy_modified_at) itself: migration 0077's trigger on
 * channels, as 0180 rewrote it, fires on exactly these changes, and leaves the stamp alone when the
 * change is delivered as entries.
 */
public interface PolicyChangeRecorder {
    PolicyChangeRecorder NONE = (handle, communityId, channelId, change, actor, delivery) -> {};

    /** How readers learn of one policy change (PROTOCOL 4.4). */
    enum Delivery {
        /** The community's policy stamp advanced: every reader re-bootstraps. */
        RESET,
        /** Entries of each reader's next delta and live frames; {@code settingsChange} names the history row. */
        ENTRIES
    }

    void channelPolicyChanged(
            Handle handle, long communityId, UUID channelId, String change, String actor, Delivered delivery);

    /** How the change was delivered, and the history row that says what it was. */
    record Delivered(Delivery delivery, long settingsChange) {
        public boolean asEntries() {
            return delivery == Delivery.ENTRIES;
        }
    }

    /** Tells each recorder in turn, in the same transaction. */
    static PolicyChangeRecorder all(PolicyChangeRecorder... recorders) {
        return (handle, communityId, channelId, change, actor, delivery) -> {
            for (PolicyChangeRecorder recorder : recorders) {
                recorder.channelPolicyChanged(handle, communityId, channelId, change, actor, delivery);
            }
        };
    }
}
