package chat.buzz.relay.channel;

import chat.buzz.relay.changes.PolicyChangeRecorder;
import chat.buzz.relay.events.EventHandler;
import java.util.Map;

/** The NIP-29 kinds the write path hands to channels. */
public final class ChannelFeature {
    private ChannelFeature() {}

    public static Map<Integer, EventHandler> handlers(
            PolicyChangeLimitConfig limit, PolicyChangeRecorder policyChanges, PolicyChangeRefusals refusals) {
        return new ChannelWrites(policyChanges, new PolicyChangeLimit(limit, refusals)).handlers();
    }
}
