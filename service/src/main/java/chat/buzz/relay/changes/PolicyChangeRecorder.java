package chat.buzz.relay.changes;

import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Told, inside the write transaction, when a channel change alters who may discover its artifacts
 * (visibility, unlisted flag, TTL, deletion). The operations console records the cause here
 * ({@code PolicyStampAdvances}). The policy stamp itself (communities.artifact_policy_modified_at) is
 * advanced by the database: migration 0077's trigger on channels fires on exactly these changes.
 */
public interface PolicyChangeRecorder {
    PolicyChangeRecorder NONE = (handle, communityId, channelId, change, actor) -> {};

    void channelPolicyChanged(Handle handle, long communityId, UUID channelId, String change, String actor);

    /** Tells each recorder in turn, in the same transaction. */
    static PolicyChangeRecorder all(PolicyChangeRecorder... recorders) {
        return (handle, communityId, channelId, change, actor) -> {
            for (PolicyChangeRecorder recorder : recorders) {
                recorder.channelPolicyChanged(handle, communityId, channelId, change, actor);
            }
        };
    }
}
