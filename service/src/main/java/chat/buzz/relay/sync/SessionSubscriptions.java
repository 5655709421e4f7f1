package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.StrictJson;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.web.StorableText;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One connection's subscriptions by id: REQ starts one (an artifact subscription or a channel-metadata
 * one), CLOSE ends it, and the connection's end cancels them all. Ending a subscription only posts to
 * it and shuts its lane, so once a CLOSE or a REQ that reuses the id is handled, nothing more of the
 * old subscription reaches the client.
 */
final class SessionSubscriptions {
    static final int MAX_SUBSCRIPTION_ID = 64;

    private final SyncSession session;
    private final SyncContext context;
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final ChannelMetadataRequests channelMetadata;

    SessionSubscriptions(SyncSession session, SyncContext context) {
        this.session = session;
        this.context = context;
        this.channelMetadata = new ChannelMetadataRequests(session, context.channelMetadata());
    }

    void req(JsonNode message) {
        if (message.size() < 2 || !isSubscriptionId(message.get(1))) {
            session.reply(Frames.notice(ErrorCodes.INVALID_PREFIX + "REQ needs a subscription id of 1.."
                    + MAX_SUBSCRIPTION_ID + " characters, without NUL or unpaired surrogates"));
            return;
        }
        String id = message.get(1).asText();
        if (session.reader() == null) {
            answer(id, Frames.closed(id, ErrorCodes.AUTH_REQUIRED_PREFIX + "answer the AUTH challenge first"));
            return;
        }
        // Channel metadata (PROTOCOL 4.6): after AUTH, whatever the sync gate says.
        if (ChannelMetadataRequests.isChannelMetadata(message)) {
            if (freeSlotFor(id)) {
                channelMetadata.subscribe(id, message);
            }
            return;
        }
        if (!context.gates().isEnabled(Gate.SYNC)) {
            answer(id, Frames.closed(id, ErrorCodes.SYNC_UNAVAILABLE_AT_REQUEST));
            return;
        }
        if (message.size() != 3) {
            answer(id, Frames.closed(id, ErrorCodes.INVALID_PREFIX + "a sync REQ has exactly one filter"));
            return;
        }
        SyncFilter filter;
        try {
            filter = SyncFilter.parse(message.get(2));
        } catch (SyncFilter.Invalid e) {
            answer(id, Frames.closed(id, ErrorCodes.INVALID_PREFIX + e.getMessage()));
            return;
        }
        if (!freeSlotFor(id)) {
            return;
        }
        Subscription subscription = new Subscription(session, context, id, filter);
        subscriptions.put(id, subscription);
        if (session.isClosed()) {
            subscription.cancel();
            return;
        }
        subscription.start();
    }

    /**
     * Ends whatever subscription {@code id} named (a REQ with an id in use replaces it, of either kind),
     * then whether the connection has room for one more; if not, the client is told so.
     */
    private boolean freeSlotFor(String id) {
        Subscription previous = subscriptions.remove(id);
        if (previous != null) {
            previous.cancel();
        }
        channelMetadata.close(id);
        int limit = context.config().getMaxSubscriptionsPerConnection();
        if (subscriptions.size() + channelMetadata.size() >= limit) {
            answer(
                    id,
                    Frames.closed(
                            id,
                            ErrorCodes.BLOCKED_PREFIX + "at most " + limit
                                    + " subscriptions per connection; CLOSE one first"));
            return false;
        }
        return true;
    }

    void close(JsonNode message) {
        if (message.size() != 2 || !isSubscriptionId(message.get(1))) {
            session.reply(Frames.notice(ErrorCodes.INVALID_PREFIX + "CLOSE takes one subscription id"));
            return;
        }
        Subscription subscription = subscriptions.remove(message.get(1).asText());
        if (subscription != null) {
            subscription.cancel();
        }
        channelMetadata.close(message.get(1).asText());
    }

    /** A subscription ended itself (with a CLOSED): its id is free again. */
    void forget(Subscription subscription) {
        subscriptions.remove(subscription.id(), subscription);
    }

    /** The connection is going away: every subscription ends without a word. */
    void cancelAll() {
        subscriptions.values().forEach(Subscription::cancel);
        channelMetadata.closeAll();
    }

    void clear() {
        cancelAll();
        subscriptions.clear();
    }

    /**
     * The CLOSED of a REQ that started nothing. While a subscription of that id is open, the answer
     * queues behind the frames already queued for it, so that id's frames keep their order.
     */
    private void answer(String id, String closed) {
        if (subscriptions.containsKey(id)) {
            session.deliver(closed);
        } else {
            session.reply(closed);
        }
    }

    /** The id is echoed in every frame of the subscription: it must be text that can be sent back. */
    private static boolean isSubscriptionId(JsonNode node) {
        return node != null
                && node.isTextual()
                && !node.asText().isEmpty()
                && node.asText().length() <= MAX_SUBSCRIPTION_ID
                && !StorableText.hasNul(node.asText())
                && !StrictJson.hasUnpairedSurrogate(node.asText());
    }
}
