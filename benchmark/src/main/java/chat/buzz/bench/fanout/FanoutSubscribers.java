package chat.buzz.bench.fanout;

import chat.buzz.bench.ChannelListener;
import chat.buzz.bench.Timings;
import chat.buzz.protocol.NostrKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * WebSocket subscribers of one channel, spread over relay instances, each with its own key. For every
 * EVENT frame naming a write in {@code sentNanos}, they record the time from sending the write to the
 * frame's first part. Frames are read by looking for the event id, not parsed, so the load generator
 * stays cheap. Against the relay they answer AUTH (NIP-42) and subscribe once it is accepted; against a
 * relay without auth they subscribe as soon as the socket opens. Either way the REQ is the same.
 */
final class FanoutSubscribers implements AutoCloseable {
    private final Map<String, Long> sentNanos;
    private final boolean authenticate;
    final Timings frames = new Timings();
    final AtomicLong closedByRelay = new AtomicLong();
    final AtomicLong noEose = new AtomicLong();
    private final List<WebSocket> sockets = new ArrayList<>();

    FanoutSubscribers(Map<String, Long> sentNanos, boolean authenticate) {
        this.sentNanos = sentNanos;
        this.authenticate = authenticate;
    }

    /** Connects {@code count} subscribers round-robin over {@code baseUrls}, each waited for (60 s) until EOSE. */
    void connect(HttpClient http, List<String> baseUrls, UUID channel, int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            String url = baseUrls.get(i % baseUrls.size()).replaceFirst("^http", "ws") + "/";
            Listener listener = new Listener(NostrKeys.generate(), url, channel);
            sockets.add(http.newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(url), listener)
                    .join());
            // One at a time: the relay limits connections per address that have not authenticated yet.
            try {
                listener.live.get(60, TimeUnit.SECONDS);
            } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                noEose.incrementAndGet();
            }
        }
    }

    @Override
    public void close() {
        for (WebSocket socket : sockets) {
            socket.abort();
        }
    }

    private final class Listener extends ChannelListener {
        final CompletableFuture<Void> live = new CompletableFuture<>();

        Listener(NostrKeys keys, String url, UUID channel) {
            super(keys, url, channel);
        }

        @Override
        public void onOpen(WebSocket socket) {
            if (!authenticate) {
                subscribe(socket, "f");
            }
            super.onOpen(socket);
        }

        @Override
        protected void onMessage(WebSocket socket, String text, long receivedNanos) {
            if (text.startsWith("[\"EVENT\"")) {
                Long sent = sentNanos.get(eventId(text));
                if (sent != null) {
                    frames.add(receivedNanos - sent);
                }
            } else if (text.startsWith("[\"AUTH\"") && authenticate) {
                answerAuth(socket, text.substring(text.indexOf(",\"") + 2, text.lastIndexOf('"')));
            } else if (text.startsWith("[\"OK\"") && authenticate) {
                subscribe(socket, "f");
            } else if (text.startsWith("[\"EOSE\"")) {
                live.complete(null);
            } else if (text.startsWith("[\"CLOSED\"")) {
                closedByRelay.incrementAndGet();
                live.completeExceptionally(new IllegalStateException(text));
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            closedByRelay.incrementAndGet();
            live.completeExceptionally(new IllegalStateException("closed: " + status + " " + reason));
            return CompletableFuture.completedFuture(null);
        }
    }

    private static String eventId(String frame) {
        int at = frame.indexOf("\"id\":\"");
        return at < 0 || at + 70 > frame.length() ? "" : frame.substring(at + 6, at + 70);
    }
}
