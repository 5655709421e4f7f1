package chat.buzz.relay.sync;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.MalformedEventException;
import chat.buzz.protocol.Nip42;
import chat.buzz.protocol.Nip42Exception;
import chat.buzz.protocol.StrictJson;
import chat.buzz.relay.community.Community;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.web.StorableText;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;

/**
 * One WebSocket connection: NIP-42 AUTH, then REQ/CLOSE. Every reply goes through the
 * connection's {@link Outbox}; a malformed frame is answered and the connection stays open.
 */
final class SyncSession implements ConnectionAdmission.Connection {
    static final int MAX_SUBSCRIPTION_ID = 64;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SyncHub hub;
    private final Community community;
    private final String relayUrl;
    private final String address;
    private final String challenge;
    private final Outbox outbox;
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final ChannelMetadataRequests channelMetadata;
    private volatile String reader;
    private volatile long lastHeardNanos = System.nanoTime();
    private volatile boolean closed;
    private volatile ScheduledFuture<?> authDeadline;

    /**
     * @param address the client's IP address (behind a trusted proxy, the one it forwarded), for the caps
     *     on connections per address
     */
    SyncSession(SyncHub hub, Community community, String relayUrl, String address, Outbox.Sink sink) {
        this.hub = hub;
        this.community = community;
        this.relayUrl = relayUrl;
        this.address = address;
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        this.challenge = HexFormat.of().formatHex(bytes);
        this.outbox = new Outbox(
                sink,
                hub.config().getQueueFrames(),
                hub.config().getQueueBytes(),
                hub.config().getMaxSubscriptionsPerConnection());
        this.channelMetadata = new ChannelMetadataRequests(this, hub.channelMetadata());
    }

    Community community() {
        return community;
    }

    String reader() {
        return reader;
    }

    Outbox outbox() {
        return outbox;
    }

    long lastHeardNanos() {
        return lastHeardNanos;
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public void shed(String notice) {
        outbox.closeAfter(Frames.notice(notice), "shed for a newer connection");
    }

    void opened() {
        String refusal = hub.opened(this);
        if (refusal != null) {
            outbox.closeAfter(Frames.notice(refusal), "too many connections");
            return;
        }
        authDeadline = hub.schedule(this::authOverdue, hub.config().getAuthTimeoutSeconds());
        reply(Frames.auth(challenge));
    }

    private void authOverdue() {
        if (reader == null && !closed) {
            hub.authTimedOut();
            outbox.closeAfter(
                    Frames.notice("auth-required: no successful AUTH within "
                            + hub.config().getAuthTimeoutSeconds() + " s"),
                    "auth timeout");
        }
    }

    private void stopWaitingForAuth() {
        ScheduledFuture<?> deadline = authDeadline;
        if (deadline != null) {
            deadline.cancel(false);
        }
    }

    void heard() {
        lastHeardNanos = System.nanoTime();
    }

    void onMessage(String text) {
        heard();
        JsonNode message;
        try {
            message = StrictJson.read(text);
        } catch (JacksonException e) {
            reply(Frames.notice("invalid: message is not JSON"));
            return;
        }
        if (message == null
                || !message.isArray()
                || message.isEmpty()
                || !message.get(0).isTextual()) {
            reply(Frames.notice("invalid: a message is a JSON array starting with a verb"));
            return;
        }
        String verb = message.get(0).asText();
        switch (verb) {
            case "AUTH" -> auth(message);
            case "REQ" -> req(message);
            case "CLOSE" -> close(message);
            case "EVENT" -> reply(Frames.notice("unsupported: publish with POST /events, not over the WebSocket"));
            default -> reply(Frames.notice("invalid: unknown message type " + truncate(verb)));
        }
    }

    void onBinary() {
        heard();
        reply(Frames.notice("invalid: binary frames are not supported; send JSON text frames"));
    }

    private void auth(JsonNode message) {
        if (message.size() != 2 || !message.get(1).isObject()) {
            reply(Frames.notice("invalid: AUTH takes one event: [\"AUTH\", <kind-" + Kinds.RELAY_AUTH + " event>]"));
            return;
        }
        Event event;
        try {
            event = Event.fromJson(message.get(1));
        } catch (MalformedEventException | IllegalArgumentException e) {
            reply(Frames.notice("invalid: AUTH event is malformed: " + e.getMessage()));
            return;
        }
        if (reader != null) {
            reply(Frames.ok(event.id(), false, "invalid: this connection is already authenticated"));
            return;
        }
        String pubkey;
        try {
            pubkey = Nip42.verify(event, relayUrl, challenge, hub.clock());
        } catch (Nip42Exception e) {
            reply(Frames.ok(event.id(), false, "auth-required: " + e.getMessage()));
            return;
        }
        if (!hub.admit(pubkey)) {
            outbox.closeAfter(
                    Frames.ok(
                            event.id(),
                            false,
                            "rate-limited: more than " + hub.config().getMaxConnectionsPerPubkey()
                                    + " connections for this pubkey"),
                    "too many connections");
            return;
        }
        reader = pubkey;
        hub.authenticated(this);
        stopWaitingForAuth();
        reply(Frames.ok(event.id(), true, ""));
    }

    private void req(JsonNode message) {
        if (message.size() < 2 || !isSubscriptionId(message.get(1))) {
            reply(Frames.notice("invalid: REQ needs a subscription id of 1.." + MAX_SUBSCRIPTION_ID
                    + " characters, without NUL or unpaired surrogates"));
            return;
        }
        String id = message.get(1).asText();
        if (reader == null) {
            answer(id, Frames.closed(id, "auth-required: answer the AUTH challenge first"));
            return;
        }
        // Channel metadata (PROTOCOL 4.6): after AUTH, whatever the sync gate says.
        if (ChannelMetadataRequests.isChannelMetadata(message)) {
            if (freeSlotFor(id)) {
                channelMetadata.subscribe(id, message.get(2));
            }
            return;
        }
        if (!hub.gates().isEnabled(Gate.SYNC)) {
            answer(id, Frames.closed(id, "sync_unavailable: WebSocket sync is turned off on this relay"));
            return;
        }
        if (message.size() != 3) {
            answer(id, Frames.closed(id, "invalid: a sync REQ has exactly one filter"));
            return;
        }
        SyncFilter filter;
        try {
            filter = SyncFilter.parse(message.get(2));
        } catch (SyncFilter.Invalid e) {
            answer(id, Frames.closed(id, "invalid: " + e.getMessage()));
            return;
        }
        if (!freeSlotFor(id)) {
            return;
        }
        Subscription subscription = new Subscription(this, hub, id, filter);
        subscriptions.put(id, subscription);
        if (closed) {
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
        if (subscriptions.size() + channelMetadata.size() >= hub.config().getMaxSubscriptionsPerConnection()) {
            answer(
                    id,
                    Frames.closed(
                            id,
                            "blocked: at most " + hub.config().getMaxSubscriptionsPerConnection()
                                    + " subscriptions per connection; CLOSE one first"));
            return false;
        }
        return true;
    }

    private void close(JsonNode message) {
        if (message.size() != 2 || !isSubscriptionId(message.get(1))) {
            reply(Frames.notice("invalid: CLOSE takes one subscription id"));
            return;
        }
        Subscription subscription = subscriptions.remove(message.get(1).asText());
        if (subscription != null) {
            subscription.cancel();
        }
        channelMetadata.close(message.get(1).asText());
    }

    void forget(Subscription subscription) {
        subscriptions.remove(subscription.id(), subscription);
    }

    /** Tells the client why, then disconnects it; its queue never grows past the limit. */
    void tooSlow() {
        if (outbox.isClosing()) {
            return;
        }
        hub.tooSlow();
        outbox.closeAfter(
                Frames.notice("too slow: the relay's queue for this connection is full (limit "
                        + hub.config().getQueueFrames() + " messages); reconnect and subscribe again"),
                "too slow");
        subscriptions.values().forEach(Subscription::cancel);
        channelMetadata.closeAll();
    }

    void idle() {
        outbox.closeAfter(
                Frames.notice("idle: no message or pong for " + hub.config().getIdleTimeoutSeconds() + " s"),
                "idle timeout");
    }

    /** The socket is gone: drop everything this connection held. */
    void closed() {
        closed = true;
        outbox.abandon();
        subscriptions.values().forEach(Subscription::cancel);
        subscriptions.clear();
        channelMetadata.closeAll();
        stopWaitingForAuth();
        hub.closed(this, reader);
    }

    /** An answer to the client's message: it goes ahead of queued subscription frames (see {@link Outbox}). */
    void reply(String frame) {
        if (!outbox.offerReply(frame)) {
            tooSlow();
        }
    }

    /** A frame of a subscription: it waits behind the frames queued before it; a full queue ends the connection. */
    void deliver(String frame) {
        if (!outbox.offer(frame)) {
            tooSlow();
        }
    }

    /**
     * The CLOSED of a REQ that started nothing. While a subscription of that id is open, the answer
     * queues behind the frames already queued for it, so that id's frames keep their order.
     */
    private void answer(String id, String closed) {
        if (subscriptions.containsKey(id)) {
            if (!outbox.offer(closed)) {
                tooSlow();
            }
        } else {
            reply(closed);
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

    private static String truncate(String text) {
        return text.length() <= 32 ? text : text.substring(0, 32) + "...";
    }
}
