package chat.buzz.client;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.FrameVerbs;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Nip42;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One WebSocket connection to the relay (PROTOCOL 2.2, 4.6 and 5): answers AUTH, subscribes with
 * {@code {"artifact":"sync"}} (and to channel metadata) and hands every relay message, parsed, to a queue that the follow loop
 * drains on its own thread, so store writes never interleave.
 */
final class LiveSubscription implements WebSocket.Listener, AutoCloseable {
    /**
     * A message from the relay, or the end of the connection ({@code message} null, {@code reason} why),
     * numbered in order of arrival.
     */
    record Message(long arrival, JsonNode message, String reason, int closeCode) {
        /** WebSocket's "going away": the relay instance is stopping, and another one takes the connection. */
        static final int GOING_AWAY = 1001;

        boolean ended() {
            return message == null;
        }

        /** The relay instance closed the connection because it is stopping (a restart, an upgrade). */
        boolean goingAway() {
            return ended() && closeCode == GOING_AWAY;
        }

        String verb() {
            return message.path(0).asText();
        }
    }

    private final String url;
    private final NostrKeys keys;
    private final BlockingQueue<Message> inbox = new LinkedBlockingQueue<>();
    private final StringBuilder partial = new StringBuilder();
    private final AtomicLong arrivals = new AtomicLong();
    private WebSocket socket;
    private CompletableFuture<?> sending = CompletableFuture.completedFuture(null);

    private LiveSubscription(String url, NostrKeys keys) {
        this.url = url;
        this.keys = keys;
    }

    static LiveSubscription connect(String baseUrl, NostrKeys keys) {
        String url = baseUrl.replaceFirst("^http", "ws") + "/";
        LiveSubscription subscription = new LiveSubscription(url, keys);
        try {
            subscription.socket = HttpClient.newHttpClient()
                    .newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(url), subscription)
                    .join();
        } catch (RuntimeException e) {
            throw RelayError.unreachable("WebSocket " + url, e.getCause() == null ? e : e.getCause());
        }
        return subscription;
    }

    BlockingQueue<Message> inbox() {
        return inbox;
    }

    /** The arrival number of the latest message; every message in the inbox has this number or a lower one. */
    long lastArrival() {
        return arrivals.get();
    }

    private void arrived(JsonNode message, String reason) {
        arrived(message, reason, -1);
    }

    private void arrived(JsonNode message, String reason, int closeCode) {
        inbox.add(new Message(arrivals.incrementAndGet(), message, reason, closeCode));
    }

    void authenticate(String challenge) {
        Event auth = Nip42.authEvent(keys, url, challenge, System.currentTimeMillis() / 1000);
        send("[\"" + FrameVerbs.AUTH + "\"," + auth.toJson() + "]");
    }

    void subscribe(String id, List<String> scope) {
        ObjectNode filter = SignedHttp.JSON.createObjectNode().put("artifact", "sync");
        if (!scope.isEmpty()) {
            ArrayNode h = filter.putArray(Tags.FILTER_CHANNEL);
            scope.forEach(h::add);
        }
        ArrayNode request =
                SignedHttp.JSON.createArrayNode().add(FrameVerbs.REQ).add(id).add(filter);
        send(request.toString());
    }

    /** NIP-29 channel metadata (PROTOCOL 4.6): its current events, EOSE, then every change. */
    void subscribeChannelMetadata(String id) {
        ObjectNode filter = SignedHttp.JSON.createObjectNode();
        filter.putArray("kinds")
                .add(Kinds.CHANNEL_METADATA)
                .add(Kinds.CHANNEL_ADMINS)
                .add(Kinds.CHANNEL_MEMBERS);
        send(SignedHttp.JSON
                .createArrayNode()
                .add(FrameVerbs.REQ)
                .add(id)
                .add(filter)
                .toString());
    }

    void unsubscribe(String id) {
        send(SignedHttp.JSON.createArrayNode().add(FrameVerbs.CLOSE).add(id).toString());
    }

    private synchronized void send(String text) {
        sending = sending.thenCompose(ignored -> socket.sendText(text, true));
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            String text = partial.toString();
            partial.setLength(0);
            try {
                arrived(SignedHttp.JSON.readTree(text), null);
            } catch (IOException e) {
                arrived(null, "the relay sent a frame that is not JSON");
            }
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        arrived(null, "closed by the relay (" + statusCode + (reason.isEmpty() ? "" : " " + reason) + ")", statusCode);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        arrived(null, "connection lost: " + error);
    }

    @Override
    public void close() {
        if (socket != null) {
            socket.abort();
        }
    }
}
