package chat.buzz.bench;

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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * WebSocket subscribers of one channel, spread over relay instances, each with its own key. For every
 * EVENT frame naming a write in {@code sentNanos}, they record the time from sending the write to the
 * frame (its first part, as {@link ChannelListener} times it). Frames are read by looking for the event
 * id, not parsed, so the load generator stays cheap.
 */
final class FanoutSubscribers implements AutoCloseable {
    /** Latencies in whole milliseconds; the last bucket holds everything longer. */
    private static final int BUCKETS = 120_001;

    private final Map<String, Long> sentNanos;
    private final AtomicLongArray histogram = new AtomicLongArray(BUCKETS);
    final AtomicLong frames = new AtomicLong();
    final AtomicLong closedByRelay = new AtomicLong();
    private final List<WebSocket> sockets = new ArrayList<>();

    FanoutSubscribers(Map<String, Long> sentNanos) {
        this.sentNanos = sentNanos;
    }

    /** Connects {@code count} subscribers round-robin over {@code baseUrls}; returns once each saw EOSE. */
    void connect(HttpClient http, List<String> baseUrls, UUID channel, int count) {
        for (int i = 0; i < count; i++) {
            String url = baseUrls.get(i % baseUrls.size()).replaceFirst("^http", "ws") + "/";
            Listener listener = new Listener(NostrKeys.generate(), url, channel);
            sockets.add(http.newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(10))
                    .buildAsync(URI.create(url), listener)
                    .join());
            // One at a time: the relay limits connections per address that have not authenticated yet.
            listener.live.orTimeout(60, TimeUnit.SECONDS).join();
        }
    }

    /** The latency at {@code p} (0..1) in milliseconds over the frames counted so far. */
    long percentile(double p) {
        long total = frames.get();
        long rank = (long) Math.ceil(p * total);
        long seen = 0;
        for (int ms = 0; ms < BUCKETS; ms++) {
            seen += histogram.get(ms);
            if (seen >= rank && seen > 0) {
                return ms;
            }
        }
        return BUCKETS - 1;
    }

    @Override
    public void close() {
        for (WebSocket socket : sockets) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "benchmark over");
        }
    }

    private final class Listener extends ChannelListener {
        final CompletableFuture<Void> live = new CompletableFuture<>();

        Listener(NostrKeys keys, String url, UUID channel) {
            super(keys, url, channel);
        }

        @Override
        protected void onMessage(WebSocket socket, String text, long receivedNanos) {
            if (text.startsWith("[\"EVENT\"")) {
                Long sent = sentNanos.get(eventId(text));
                if (sent != null) {
                    histogram.incrementAndGet(
                            (int) Math.min(BUCKETS - 1, TimeUnit.NANOSECONDS.toMillis(receivedNanos - sent)));
                    frames.incrementAndGet();
                }
            } else if (text.startsWith("[\"AUTH\"")) {
                answerAuth(socket, text.substring(text.indexOf(",\"") + 2, text.lastIndexOf('"')));
            } else if (text.startsWith("[\"OK\"")) {
                subscribe(socket, "f");
            } else if (text.startsWith("[\"EOSE\"")) {
                live.complete(null);
            } else if (text.startsWith("[\"CLOSED\"")) {
                closedByRelay.incrementAndGet();
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            closedByRelay.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }
    }

    private static String eventId(String frame) {
        int at = frame.indexOf("\"id\":\"");
        return at < 0 || at + 70 > frame.length() ? "" : frame.substring(at + 6, at + 70);
    }
}
