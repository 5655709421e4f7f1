package chat.buzz.bench.live;

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
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * WebSocket sync subscribers of one relay, each with a key of its own, held cheaply in one JVM: one
 * {@link HttpClient} (one selector thread) and a few threads for all of them, and frames read by looking
 * for the event id rather than parsed. Each answers AUTH (NIP-42), then sends one sync REQ scoped to its
 * channels (PROTOCOL 5), counts the snapshot's EVENT frames until EOSE, and after EOSE counts every frame
 * of a measured write (one in {@code measured}, channel to event id to send time) and hands it to the
 * {@link FrameSink}. A subscriber refused or closed by the relay keeps the first thing the relay said.
 */
final class Crowd implements AutoCloseable {
    /** Where each frame of a measured write goes, with the write's send time and the frame's arrival. */
    interface FrameSink {
        void frame(UUID channel, long sentNanos, long receivedNanos);
    }

    /** What joining took: how many went live, how long from the first connect to the last EOSE. */
    record Joined(int asked, int live, double seconds, Timings untilLive, int snapshotMin, int snapshotMax) {}

    private final String url;
    private final Map<UUID, Map<String, Long>> measured;
    private final FrameSink sink;
    private final HttpClient http;
    private final List<Member> members = new ArrayList<>();
    private final ConcurrentLinkedQueue<String> lossReasons = new ConcurrentLinkedQueue<>();
    private volatile boolean closing;

    Crowd(String baseUrl, Map<UUID, Map<String, Long>> measured, FrameSink sink) {
        this.url = baseUrl.replaceFirst("^http", "ws") + "/";
        this.measured = measured;
        this.sink = sink;
        // A few daemon threads run every subscriber's callbacks; the JDK's default would start one per burst.
        this.http = HttpClient.newBuilder()
                .executor(Executors.newFixedThreadPool(4, runnable -> {
                    Thread thread = new Thread(runnable, "crowd");
                    thread.setDaemon(true);
                    return thread;
                }))
                .build();
    }

    /**
     * Connects {@code count} subscribers, the i-th scoped to {@code scopeOf.apply(i)}, with at most
     * {@code atOnce} of them between connecting and EOSE at a time; returns once each is live or lost
     * (a subscriber without EOSE {@code eoseTimeout} after it started is lost).
     */
    Joined join(int count, IntFunction<List<UUID>> scopeOf, int atOnce, Duration eoseTimeout)
            throws InterruptedException {
        Semaphore window = new Semaphore(atOnce);
        Timings untilLive = new Timings();
        List<Member> joining = new ArrayList<>(count);
        long begin = System.nanoTime();
        for (int i = 0; i < count; i++) {
            window.acquire();
            Member member = new Member(NostrKeys.generate(), scopeOf.apply(i));
            joining.add(member);
            long started = System.nanoTime();
            member.live.orTimeout(eoseTimeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((ok, failure) -> {
                if (failure == null) {
                    untilLive.add(System.nanoTime() - started);
                } else {
                    member.lose(
                            failure instanceof java.util.concurrent.TimeoutException
                                    ? "no EOSE within " + eoseTimeout.toSeconds() + " s"
                                    : failure.getMessage());
                }
                window.release();
            });
            http.newWebSocketBuilder()
                    .connectTimeout(Duration.ofSeconds(30))
                    .buildAsync(URI.create(url), member)
                    .whenComplete((socket, failure) -> {
                        if (failure != null) {
                            member.lose("connect failed: " + failure);
                        } else {
                            member.socket = socket;
                        }
                    });
        }
        window.acquire(atOnce);
        double seconds = (System.nanoTime() - begin) / 1e9;
        synchronized (members) {
            members.addAll(joining);
        }
        int live = (int) joining.stream()
                .filter(m -> m.live.isDone() && !m.live.isCompletedExceptionally())
                .count();
        int min = joining.stream().mapToInt(m -> m.snapshot).min().orElse(0);
        int max = joining.stream().mapToInt(m -> m.snapshot).max().orElse(0);
        return new Joined(count, live, seconds, untilLive, min, max);
    }

    /** Subscribers lost so far (refused, closed, or without EOSE). */
    long lost() {
        return lossReasons.size();
    }

    /** Why they were lost, by what the relay said, most first. */
    String lossSummary() {
        Map<String, Long> byReason = new TreeMap<>(
                lossReasons.stream().collect(Collectors.groupingBy(reason -> reason, Collectors.counting())));
        return byReason.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .map(entry -> entry.getValue() + " x " + entry.getKey())
                .collect(Collectors.joining("; "));
    }

    /** Frames of measured writes counted at every subscriber together. */
    long frames() {
        synchronized (members) {
            return members.stream().mapToLong(m -> m.frames).sum();
        }
    }

    /** Until {@code expected} frames arrived, none arrived for 10 s, or {@code giveUpAfter} passed. */
    void awaitFrames(long expected, Duration giveUpAfter) throws InterruptedException {
        long last = -1;
        long stalledSince = System.nanoTime();
        long giveUp = stalledSince + giveUpAfter.toNanos();
        while (frames() < expected && System.nanoTime() < giveUp) {
            long now = frames();
            if (now != last) {
                last = now;
                stalledSince = System.nanoTime();
            } else if (System.nanoTime() - stalledSince > TimeUnit.SECONDS.toNanos(10)) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(100); // polling frames still in flight, bounded above
        }
    }

    /**
     * The subscribers that did not get exactly their frames, given what each should have from its scope
     * (e.g. the writes accepted into its channels), as "n short, m over (k frames missing)", or null when
     * every one got every frame.
     */
    String shortfall(ToLongFunction<List<UUID>> expectedOf) {
        long shortOnes = 0;
        long overOnes = 0;
        long missing = 0;
        synchronized (members) {
            for (Member member : members) {
                long expected = expectedOf.applyAsLong(member.scope);
                shortOnes += member.frames < expected ? 1 : 0;
                overOnes += member.frames > expected ? 1 : 0;
                missing += Math.max(0, expected - member.frames);
            }
        }
        return shortOnes + overOnes == 0
                ? null
                : String.format(
                        "%d subscribers short of their frames and %d with more than written (%d frames missing)",
                        shortOnes, overOnes, missing);
    }

    @Override
    public void close() {
        closing = true;
        synchronized (members) {
            members.stream().filter(m -> m.socket != null).forEach(m -> m.socket.abort());
        }
    }

    private final class Member extends ChannelListener {
        final List<UUID> scope;
        final CompletableFuture<Void> live = new CompletableFuture<>();
        volatile WebSocket socket;
        /** EVENT frames before EOSE: the snapshot. */
        volatile int snapshot;
        /** Frames of measured writes after EOSE; one callback thread at a time per socket. */
        volatile long frames;

        private String notice;
        private boolean lost;

        Member(NostrKeys keys, List<UUID> scope) {
            super(keys, url, null);
            this.scope = scope;
        }

        @Override
        @SuppressWarnings("NonAtomicVolatileUpdate") // the JDK calls one socket's listener one message at a time
        protected void onMessage(WebSocket socket, String text, long receivedNanos) {
            if (text.startsWith("[\"" + FrameVerbs.EVENT + "\"")) {
                if (!live.isDone()) {
                    snapshot++;
                    return;
                }
                String id = eventId(text);
                for (UUID channel : scope) {
                    Long sent = measured.getOrDefault(channel, Map.of()).get(id);
                    if (sent != null) {
                        frames++;
                        sink.frame(channel, sent, receivedNanos);
                    }
                }
            } else if (text.startsWith("[\"" + FrameVerbs.AUTH + "\"")) {
                answerAuth(socket, text.substring(text.indexOf(",\"") + 2, text.lastIndexOf('"')));
            } else if (text.startsWith("[\"" + FrameVerbs.OK + "\"")) {
                if (text.contains(",true,")) {
                    subscribe(
                            socket,
                            "s",
                            scope.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(",", "\"#h\":[", "]")));
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
            String said;
            synchronized (this) {
                said = notice == null ? "" : " after " + notice;
            }
            lose("closed " + status + (reason.isEmpty() ? "" : " " + reason) + said);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            lose("socket error: " + error);
        }

        /** Counts this subscriber once, with the first reason it was lost for; not once the crowd is closing. */
        synchronized void lose(String reason) {
            if (!lost && !closing) {
                lost = true;
                lossReasons.add(reason);
            }
            live.completeExceptionally(new IllegalStateException(reason));
        }
    }
}
