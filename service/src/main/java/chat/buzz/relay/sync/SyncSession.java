package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.FrameVerbs;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.MalformedEventException;
import chat.buzz.protocol.Nip42;
import chat.buzz.protocol.Nip42Exception;
import chat.buzz.protocol.StrictJson;
import chat.buzz.relay.community.Community;
import com.codahale.metrics.Timer;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.ScheduledFuture;

/**
 * One WebSocket connection: NIP-42 AUTH, then REQ/CLOSE. Every reply goes through the
 * connection's {@link Outbox}; a malformed frame is answered and the connection stays open.
 */
final class SyncSession implements ConnectionAdmission.Connection {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SyncContext context;
    private final Community community;
    private final String relayUrl;
    private final String address;
    private final String challenge;
    private final Outbox outbox;
    private final SessionSubscriptions subscriptions;
    private volatile String reader;
    private volatile long lastHeardNanos = System.nanoTime();
    private volatile boolean closed;
    private volatile ScheduledFuture<?> authDeadline;

    /**
     * @param address the client's IP address (behind a trusted proxy, the one it forwarded), for the caps
     *     on connections per address
     */
    SyncSession(SyncContext context, Community community, String relayUrl, String address, Outbox.Sink sink) {
        this.context = context;
        this.community = community;
        this.relayUrl = relayUrl;
        this.address = address;
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        this.challenge = HexFormat.of().formatHex(bytes);
        this.outbox = new Outbox(
                sink,
                context.config().getQueueFrames(),
                context.config().getQueueBytes(),
                context.config().getMaxSubscriptionsPerConnection());
        this.subscriptions = new SessionSubscriptions(this, context);
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
        String refusal = context.connections().opened(this);
        if (refusal != null) {
            outbox.closeAfter(Frames.notice(refusal), "too many connections");
            return;
        }
        authDeadline =
                context.workers().schedule(this::authOverdue, context.config().getAuthTimeoutSeconds());
        reply(Frames.auth(challenge));
    }

    private void authOverdue() {
        if (reader == null && !closed) {
            context.metrics().authTimedOut();
            outbox.closeAfter(
                    Frames.notice(ErrorCodes.AUTH_REQUIRED_PREFIX + "no successful AUTH within "
                            + context.config().getAuthTimeoutSeconds() + " s"),
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
            reply(Frames.notice(ErrorCodes.INVALID_PREFIX + "message is not JSON"));
            return;
        }
        if (message == null
                || !message.isArray()
                || message.isEmpty()
                || !message.get(0).isTextual()) {
            reply(Frames.notice(ErrorCodes.INVALID_PREFIX + "a message is a JSON array starting with a verb"));
            return;
        }
        String verb = message.get(0).asText();
        try (Timer.Context timed = context.metrics().message(verb)) {
            switch (verb) {
                case FrameVerbs.AUTH -> auth(message);
                case FrameVerbs.REQ -> subscriptions.req(message);
                case FrameVerbs.CLOSE -> subscriptions.close(message);
                case FrameVerbs.EVENT ->
                    reply(Frames.notice(
                            ErrorCodes.UNSUPPORTED_PREFIX + "publish with POST /events, not over the WebSocket"));
                default -> reply(Frames.notice(ErrorCodes.INVALID_PREFIX + "unknown message type " + truncate(verb)));
            }
        }
    }

    void onBinary() {
        heard();
        reply(Frames.notice(ErrorCodes.INVALID_PREFIX + "binary frames are not supported; send JSON text frames"));
    }

    private void auth(JsonNode message) {
        if (message.size() != 2 || !message.get(1).isObject()) {
            reply(Frames.notice(ErrorCodes.INVALID_PREFIX + "AUTH takes one event: [\"" + FrameVerbs.AUTH + "\", <kind-"
                    + Kinds.RELAY_AUTH + " event>]"));
            return;
        }
        Event event;
        try {
            event = Event.fromJson(message.get(1));
        } catch (MalformedEventException | IllegalArgumentException e) {
            reply(Frames.notice(ErrorCodes.INVALID_PREFIX + "AUTH event is malformed: " + e.getMessage()));
            return;
        }
        if (reader != null) {
            reply(Frames.ok(event.id(), false, ErrorCodes.INVALID_PREFIX + "this connection is already authenticated"));
            return;
        }
        String pubkey;
        try {
            pubkey = Nip42.verify(event, relayUrl, challenge, context.clock());
        } catch (Nip42Exception e) {
            reply(Frames.ok(event.id(), false, ErrorCodes.AUTH_REQUIRED_PREFIX + e.getMessage()));
            return;
        }
        if (!context.connections().admit(pubkey)) {
            outbox.closeAfter(
                    Frames.ok(
                            event.id(),
                            false,
                            ErrorCodes.RATE_LIMITED_PREFIX + "more than "
                                    + context.config().getMaxConnectionsPerPubkey() + " connections for this pubkey"),
                    "too many connections");
            return;
        }
        reader = pubkey;
        context.connections().authenticated(this);
        stopWaitingForAuth();
        reply(Frames.ok(event.id(), true, ""));
    }

    void forget(Subscription subscription) {
        subscriptions.forget(subscription);
    }

    boolean isClosed() {
        return closed;
    }

    /** Tells the client why, then disconnects it; its queue never grows past the limit. */
    void tooSlow() {
        if (outbox.isClosing()) {
            return;
        }
        context.metrics().tooSlow();
        outbox.closeAfter(
                Frames.notice(ErrorCodes.TOO_SLOW_PREFIX + "the relay's queue for this connection is full (limit "
                        + context.config().getQueueFrames() + " messages); reconnect and subscribe again"),
                "too slow");
        subscriptions.cancelAll();
    }

    /** This instance is stopping: the client is told so and reconnects, to another instance. */
    void goAway() {
        outbox.goAwayAfter(
                Frames.notice(ErrorCodes.RESTARTING_PREFIX + "this relay instance is stopping; connect again now"),
                "stopping");
    }

    void idle() {
        outbox.closeAfter(
                Frames.notice(ErrorCodes.IDLE_PREFIX + "no message or pong for "
                        + context.config().getIdleTimeoutSeconds() + " s"),
                "idle timeout");
    }

    /** The socket is gone: drop everything this connection held. */
    void closed() {
        closed = true;
        outbox.abandon();
        subscriptions.clear();
        stopWaitingForAuth();
        context.connections().closed(this, reader);
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

    private static String truncate(String text) {
        return text.length() <= 32 ? text : text.substring(0, 32) + "...";
    }
}
