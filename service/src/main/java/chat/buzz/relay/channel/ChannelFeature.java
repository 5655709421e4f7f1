package chat.buzz.relay.channel;

import chat.buzz.relay.changes.PolicyChangeRecorder;
import chat.buzz.relay.events.EventHandler;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** The NIP-29 kinds the write path hands to channels. */
public final class ChannelFeature {
    private ChannelFeature() {}

    /** @param policyChangesAsEntries whether a policy change is delivered as entries right now (PROTOCOL 4.4) */
    public static Map<Integer, EventHandler> handlers(
            PolicyChangeLimitConfig limit,
            PolicyChangeRecorder policyChanges,
            PolicyChangeRefusals refusals,
            BooleanSupplier policyChangesAsEntries) {
        return new ChannelWrites(policyChanges, new PolicyChangeLimit(limit, refusals), policyChangesAsEntries)
                .handlers();
    }
}
