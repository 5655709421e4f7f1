package chat.buzz.bench;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.FrameVerbs;
import chat.buzz.protocol.NostrKeys;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** WebSocket subscribers of the seeded channel (PROTOCOL 5), each with its own key; they count what arrives. */
final class SoakSubscribers implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    final AtomicLong events = new AtomicLong();
    final AtomicLong resets = new AtomicLong();
    final AtomicLong closedByRelay = new AtomicLong();
    private final List<WebSocket> sockets = new ArrayList<>();

    void connect(HttpClient http, String baseUrl, UUID channel, int count) {
        String url = baseUrl.replaceFirst("^http", "ws") + "/";
        for (int i = 0; i < count; i++) {
            Listener listener = new Listener(NostrKeys.generate(), url, channel);
            sockets.add(http.newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(url), listener)
                    .join());
            // One at a time: the relay limits connections per address that have not authenticated yet.
            listener.authenticated.orTimeout(30, TimeUnit.SECONDS).join();
        }
    }

    @Override
    public void close() {
        for (WebSocket socket : sockets) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "soak over");
        }
    }

    private final class Listener extends ChannelListener {
        private int subscription;
        final CompletableFuture<Void> authenticated = new CompletableFuture<>();

        Listener(NostrKeys keys, String url, UUID channel) {
            super(keys, url, channel);
        }

        @Override
        protected void onMessage(WebSocket socket, String text, long receivedNanos) {
            try {
                JsonNode message = JSON.readTree(text);
                switch (message.path(0).asText()) {
                    case FrameVerbs.AUTH -> answerAuth(socket, message.path(1).asText());
                    case FrameVerbs.OK -> {
                        authenticated.complete(null);
                        subscribe(socket);
                    }
                    case FrameVerbs.EVENT -> events.incrementAndGet();
                    case FrameVerbs.CLOSED -> {
                        if (message.path(2).asText().startsWith(ErrorCodes.SYNC_RESET_PREFIX)) {
                            resets.incrementAndGet();
                            subscribe(socket);
                        } else {
                            closedByRelay.incrementAndGet();
                        }
                    }
                    default -> {}
                }
            } catch (Exception e) {
                closedByRelay.incrementAndGet();
            }
        }

        private void subscribe(WebSocket socket) {
            subscription++;
            subscribe(socket, "s" + subscription);
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            closedByRelay.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }
    }
}
