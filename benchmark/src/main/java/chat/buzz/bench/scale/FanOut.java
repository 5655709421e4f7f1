package chat.buzz.bench.scale;

import chat.buzz.bench.ChannelListener;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * WebSocket fan-out: subscribers of one open channel, each with its own key, while one writer edits an
 * artifact of that channel at a fixed rate. Latency is from sending the write to a frame carrying it.
 */
final class FanOut {
    private final SignedCalls calls;
    private final Map<String, Long> sentAt = new ConcurrentHashMap<>();
    private final Timings latencies = new Timings();
    private final AtomicLong frames = new AtomicLong();
    private final AtomicLong closed = new AtomicLong();
    private final AtomicLong notReady = new AtomicLong();

    FanOut(SignedCalls calls) {
        this.calls = calls;
    }

    Map<String, Object> run(
            UUID channel,
            NostrKeys writer,
            UUID artifact,
            String head,
            int subscribers,
            double writesPerSecond,
            int seconds)
            throws Exception {
        String url = calls.baseUrl().replaceFirst("^http", "ws") + "/";
        List<WebSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < subscribers; i++) {
                Listener listener = new Listener(NostrKeys.generate(), url, channel);
                sockets.add(calls.http()
                        .newWebSocketBuilder()
                        .connectTimeout(Duration.ofSeconds(10))
                        .buildAsync(URI.create(url), listener)
                        .join());
                // One at a time: the relay limits unauthenticated connections per address.
                try {
                    listener.subscribed.get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    notReady.incrementAndGet();
                }
            }
            int writes = (int) (writesPerSecond * seconds);
            long interval = (long) (1e9 / writesPerSecond);
            long start = System.nanoTime();
            int accepted = 0;
            for (int i = 0; i < writes; i++) {
                long due = start + i * interval;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait); // the write schedule, not a race
                }
                Event event = Writers.revision(writer, artifact, channel, head, "fan-out " + i, "fan-out body " + i);
                sentAt.put(event.id(), System.nanoTime());
                if (calls.post(writer, "/events", event.toJson()).status() == 200) {
                    head = event.id();
                    accepted++;
                }
            }
            long expected = (long) accepted * subscribers;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (frames.get() < expected && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(50); // waiting for frames still in flight, bounded
            }
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            out.put("subscribers", subscribers);
            out.put("writes_per_second", writesPerSecond);
            out.put("seconds", seconds);
            out.put("writes_accepted", accepted);
            out.put("frames_expected", expected);
            out.put("frames_delivered", frames.get());
            out.put("p50_ms", Timings.round(latencies.medianMillis()));
            out.put("p99_ms", Timings.round(latencies.p99Millis()));
            out.put("closed_by_relay", closed.get());
            out.put("no_eose_within_60_s", notReady.get());
            out.put("head", head);
            return out;
        } finally {
            for (WebSocket socket : sockets) {
                socket.abort();
            }
        }
    }

    private final class Listener extends ChannelListener {
        final CompletableFuture<Void> subscribed = new CompletableFuture<>();

        Listener(NostrKeys keys, String url, UUID channel) {
            super(keys, url, channel);
        }

        @Override
        protected void onMessage(WebSocket socket, String text, long now) {
            try {
                JsonNode message = SignedCalls.JSON.readTree(text);
                switch (message.path(0).asText()) {
                    case "AUTH" -> answerAuth(socket, message.path(1).asText());
                    case "OK" -> {
                        if (!message.path(2).asBoolean()) {
                            subscribed.completeExceptionally(new IllegalStateException("AUTH refused: " + text));
                        }
                        subscribe(socket, "fan");
                    }
                    case "EOSE" -> subscribed.complete(null);
                    case "EVENT" -> {
                        Long sent = sentAt.get(message.path(2).path("id").asText());
                        if (sent != null) {
                            synchronized (latencies) {
                                latencies.add(now - sent, 1);
                            }
                            frames.incrementAndGet();
                        }
                    }
                    case "CLOSED", "NOTICE" -> {
                        closed.incrementAndGet();
                        subscribed.completeExceptionally(new IllegalStateException("the relay said " + text));
                    }
                    default -> {}
                }
            } catch (Exception e) {
                closed.incrementAndGet();
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            closed.incrementAndGet();
            subscribed.complete(null);
            return CompletableFuture.completedFuture(null);
        }
    }
}
