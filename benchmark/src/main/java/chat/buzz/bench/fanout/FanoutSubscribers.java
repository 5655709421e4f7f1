package chat.buzz.bench.fanout;

import chat.buzz.bench.ChannelListener;
import chat.buzz.bench.Timings;
import chat.buzz.protocol.FrameVerbs;
import chat.buzz.protocol.NostrKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * WebSocket subscribers of one channel, spread over relay instances, each with its own key. For every
 * EVENT frame naming a write in {@code sentNanos}, they record the time from sending the write to the
 * frame's first part. Frames are read by looking for the event id, not parsed, so the load generator
 * stays cheap. Against the relay they answer AUTH (NIP-42) and subscribe once it is accepted; against a
 * relay without auth they subscribe as soon as the socket opens. Either way the REQ is the same.
 *
 * <p>A subscriber the relay refuses or closes is lost for the whole run, and every frame it would have
 * had is missing: each one keeps the first thing the relay said about it (a NOTICE, CLOSED or close
 * status and reason), so a run can say why it lost them instead of a ratio over fewer frames.
 */
final class FanoutSubscribers implements AutoCloseable {
    private final Map<String, Long> sentNanos;
    private final boolean authenticate;
    final Timings frames = new Timings();
    final AtomicLong closedByRelay = new AtomicLong();
    final AtomicLong noEose = new AtomicLong();
    private final ConcurrentLinkedQueue<String> lossReasons = new ConcurrentLinkedQueue<>();
    private final List<WebSocket> sockets = new ArrayList<>();
    private volatile boolean closing;

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
            } catch (TimeoutException e) {
                noEose.incrementAndGet();
                listener.lose("no EOSE within 60 s");
            } catch (java.util.concurrent.ExecutionException e) {
                noEose.incrementAndGet();
            }
        }
    }

    /** Subscribers lost so far (refused, closed, or without EOSE), by what the relay said, most first. */
    String lossSummary() {
        Map<String, Integer> byReason = new TreeMap<>();
        lossReasons.forEach(reason -> byReason.merge(reason, 1, Integer::sum));
        List<String> lines = new ArrayList<>();
        byReason.entrySet().stream()
                .sorted((a, b) -> b.getValue() - a.getValue())
                .forEach(entry -> lines.add(entry.getValue() + " x " + entry.getKey()));
        return String.join("; ", lines);
    }

    /** How many subscribers were lost: refused or closed by the relay, or never live. */
    long lost() {
        return lossReasons.size();
    }

    @Override
    public void close() {
        closing = true;
        for (WebSocket socket : sockets) {
            socket.abort();
        }
    }

    private final class Listener extends ChannelListener {
        final CompletableFuture<Void> live = new CompletableFuture<>();
        private String notice;
        private boolean lost;

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
            if (text.startsWith("[\"" + FrameVerbs.EVENT + "\"")) {
                Long sent = sentNanos.get(eventId(text));
                if (sent != null) {
                    frames.add(receivedNanos - sent);
                }
            } else if (text.startsWith("[\"" + FrameVerbs.AUTH + "\"") && authenticate) {
                answerAuth(socket, text.substring(text.indexOf(",\"") + 2, text.lastIndexOf('"')));
            } else if (text.startsWith("[\"" + FrameVerbs.OK + "\"") && authenticate) {
                if (text.contains(",true,")) {
                    subscribe(socket, "f");
                } else {
                    lose("AUTH refused: " + text);
                }
            } else if (text.startsWith("[\"" + FrameVerbs.EOSE + "\"")) {
                live.complete(null);
            } else if (text.startsWith("[\"" + FrameVerbs.NOTICE + "\"")) {
                synchronized (this) {
                    notice = text;
                }
            } else if (text.startsWith("[\"" + FrameVerbs.CLOSED + "\"")) {
                lose(text);
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
            if (!closing) {
                String said;
                synchronized (this) {
                    said = notice == null ? "" : " after " + notice;
                }
                lose("closed " + status + (reason.isEmpty() ? "" : " " + reason) + said);
            }
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            if (!closing) {
                lose("socket error: " + error);
            }
        }

        /** Counts this subscriber once, with the first reason it was lost for. */
        private synchronized void lose(String reason) {
            if (!lost) {
                lost = true;
                closedByRelay.incrementAndGet();
                lossReasons.add(reason);
            }
            live.completeExceptionally(new IllegalStateException(reason));
        }
    }
}
