package chat.buzz.relay.channel;

import chat.buzz.relay.events.WriteRejection;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * PROTOCOL 3 and 4.4: writes that advance the policy stamp restart every client's bootstrap and close
 * every live subscription, so one pubkey, and one community as a whole, may make only so many of them
 * per window. Checked inside the write's transaction, after the write is known to really change policy
 * and to be allowed, and before it changes anything.
 */
public final class PolicyChangeLimit {
    /** First key of the advisory lock, so it cannot collide with another feature's per-community lock. */
    private static final int LOCK_NAMESPACE = 0x42_50_43_4C;

    private final PolicyChangeLimitConfig config;
    private final PolicyChangeRefusals refusals;

    public PolicyChangeLimit(PolicyChangeLimitConfig config, PolicyChangeRefusals refusals) {
        this.config = config;
        this.refusals = refusals;
    }

    /**
     * Returns when the write may go ahead; the community stays locked for other policy changes until the
     * transaction ends, so the advance this write records is counted by the next one.
     *
     * @throws WriteRejection 429 with the seconds until the window admits another change
     */
    void admit(Handle handle, long communityId, String actor) {
        PolicyChangeLimitDao dao = handle.attach(PolicyChangeLimitDao.class);
        dao.lockCommunity(LOCK_NAMESPACE, Long.hashCode(communityId));
        double windowSeconds = config.getWindow().toMilliseconds() / 1000.0;
        Optional<Long> actorWait =
                dao.secondsUntilActorAdmitted(communityId, actor, config.getPerPubkey(), windowSeconds);
        Optional<Long> communityWait =
                dao.secondsUntilCommunityAdmitted(communityId, config.getPerCommunity(), windowSeconds);
        if (actorWait.isEmpty() && communityWait.isEmpty()) {
            return;
        }
        refusals.policyChangeRefused(communityId);
        long wait = Math.max(actorWait.orElse(0L), communityWait.orElse(0L));
        String limit = actorWait.isPresent()
                ? "at most " + config.getPerPubkey() + " policy changes per pubkey"
                : "at most " + config.getPerCommunity() + " policy changes in this community";
        throw WriteRejection.rateLimited(limit + " every " + config.getWindow() + "; retry in " + wait + " s", wait);
    }
}
