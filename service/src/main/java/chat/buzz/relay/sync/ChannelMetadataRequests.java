package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.channelmeta.ChannelMetadataFilter;
import chat.buzz.relay.channelmeta.ChannelMetadataLive;
import chat.buzz.relay.channelmeta.MetadataRequest;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One connection's channel-metadata subscriptions (PROTOCOL 4.6): a REQ whose filters (one or
 * several) have no {@code artifact} key. They need AUTH but not the sync gate: channel metadata is always available.
 */
final class ChannelMetadataRequests {
    private final SyncSession session;
    private final ChannelMetadataLive live;
    private final Map<String, ChannelMetadataLive.Handle> subscriptions = new ConcurrentHashMap<>();

    ChannelMetadataRequests(SyncSession session, ChannelMetadataLive live) {
        this.session = session;
        this.live = live;
    }

    /**
     * Whether a REQ asks for channel metadata rather than artifacts: it has filters and none of them
     * has an {@code artifact} key (one lone filter that is no object goes to the sync path, which says
     * what a sync filter must be).
     */
    static boolean isChannelMetadata(JsonNode message) {
        if (message.size() < 3 || (message.size() == 3 && !message.get(2).isObject())) {
            return false;
        }
        for (int i = 2; i < message.size(); i++) {
            if (message.get(i).has("artifact")) {
                return false;
            }
        }
        return true;
    }

    /** Starts (or replaces) subscription {@code id}; the caller has checked AUTH and closed any artifact one. */
    void subscribe(String id, JsonNode message) {
        List<JsonNode> filters = new ArrayList<>();
        for (int i = 2; i < message.size(); i++) {
            filters.add(message.get(i));
        }
        MetadataRequest request;
        try {
            request = MetadataRequest.parse(filters, live.relayPubkey());
        } catch (ChannelMetadataFilter.Invalid e) {
            session.reply(Frames.closed(id, ErrorCodes.INVALID_PREFIX + e.getMessage()));
            return;
        }
        close(id);
        ChannelMetadataLive.Handle handle =
                live.subscribe(session.community().id(), session.reader(), request, new ChannelMetadataLive.Sink() {
                    @Override
                    public void event(String eventJson) {
                        session.deliver(Frames.event(id, eventJson));
                    }

                    @Override
                    public void endOfStoredEvents() {
                        session.deliver(Frames.eose(id));
                    }

                    @Override
                    public void closed(String reason) {
                        subscriptions.remove(id);
                        session.reply(Frames.closed(id, reason));
                    }
                });
        subscriptions.put(id, handle);
    }

    int size() {
        return subscriptions.size();
    }

    /** @return whether {@code id} was a channel-metadata subscription */
    boolean close(String id) {
        ChannelMetadataLive.Handle handle = subscriptions.remove(id);
        if (handle != null) {
            handle.cancel();
        }
        return handle != null;
    }

    void closeAll() {
        subscriptions.values().forEach(ChannelMetadataLive.Handle::cancel);
        subscriptions.clear();
    }
}
