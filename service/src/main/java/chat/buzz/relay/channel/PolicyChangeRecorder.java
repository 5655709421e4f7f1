package chat.buzz.relay.channel;

import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Told, inside the write transaction, when a channel change alters who may discover its artifacts
 * (visibility, unlisted flag, TTL, deletion). Incremental sync advances the community's policy stamp here.
 */
public interface PolicyChangeRecorder {
    PolicyChangeRecorder NONE = (handle, communityId, channelId, change, actor) -> { };

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
