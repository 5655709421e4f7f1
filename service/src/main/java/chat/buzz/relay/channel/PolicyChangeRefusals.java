package chat.buzz.relay.channel;

/**
 * Told when the policy-change limit refuses a write, so operators can see a flood next to the resets
 * it would have caused. Counting must not write to the database in the refused transaction: it rolls back.
 */
public interface PolicyChangeRefusals {
    PolicyChangeRefusals NONE = communityId -> {};

    void policyChangeRefused(long communityId);
}
