package chat.buzz.relay.incremental;

import chat.buzz.relay.channel.PolicyChangeRecorder;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Advances the community's policy stamp inside the channel change's transaction. It runs for every
 * real change, also when the channel holds no artifacts: the channel edit holds the channel row
 * exclusively, so an artifact write into it (which share-locks the row) has either committed before
 * the stamp or commits after it with a later change stamp; either way it cannot slip past the reset.
 */
public final class PolicyStampRecorder implements PolicyChangeRecorder {
    @Override
    public void channelPolicyChanged(Handle handle, long communityId, UUID channelId, String change, String actor) {
        handle.createUpdate("UPDATE communities SET artifact_policy_modified_at = clock_timestamp() WHERE id = :community")
                .bind("community", communityId)
                .execute();
    }
}
