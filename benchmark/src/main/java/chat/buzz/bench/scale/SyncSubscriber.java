package chat.buzz.bench.scale;

import chat.buzz.bench.ChannelListener;
import chat.buzz.bench.SignedCalls;
import chat.buzz.client.Digest;
import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.FrameVerbs;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A WebSocket sync subscriber (PROTOCOL 5) that keeps what it was sent: d to head id from the head
 * frames, a 45011 removal drops its d, and {@code sync_reset} starts it over with a new subscription.
 * It holds D once it has seen EOSE of its current subscription and its digest is the expected one.
 */
final class SyncSubscriber extends ChannelListener {
    private final String filterKeys;
    private final Map<String, String> store = new ConcurrentHashMap<>();
    private final AtomicLong bytes;
    private volatile boolean live;
    private int subscription;
    final CompletableFuture<Void> firstEose = new CompletableFuture<>();
    final AtomicLong resets = new AtomicLong();
    final AtomicLong closed = new AtomicLong();

    /** @param filterKeys the REQ's keys after {@code "artifact":"sync"} (a scope), or empty */
    SyncSubscriber(NostrKeys keys, String url, String filterKeys, AtomicLong bytes) {
        super(keys, url, null);
        this.filterKeys = filterKeys;
        this.bytes = bytes;
    }

    @Override
    protected void onMessage(WebSocket socket, String text, long receivedNanos) {
        bytes.addAndGet(text.length());
        try {
            JsonNode message = SignedCalls.JSON.readTree(text);
            switch (message.path(0).asText()) {
                case FrameVerbs.AUTH -> answerAuth(socket, message.path(1).asText());
                case FrameVerbs.OK -> resubscribe(socket);
                case FrameVerbs.EVENT -> apply(message.path(2));
                case FrameVerbs.EOSE -> {
                    live = true;
                    firstEose.complete(null);
                }
                case FrameVerbs.CLOSED -> {
                    if (message.path(2).asText().startsWith(ErrorCodes.SYNC_RESET_PREFIX)) {
                        resets.incrementAndGet();
                        resubscribe(socket);
                    } else {
                        closed.incrementAndGet();
                        firstEose.completeExceptionally(new IllegalStateException(text));
                    }
                }
                default -> {}
            }
        } catch (IOException e) {
            closed.incrementAndGet();
        }
    }

    private void resubscribe(WebSocket socket) {
        live = false;
        store.clear();
        subscription++;
        subscribe(socket, "p" + subscription, filterKeys);
    }

    private void apply(JsonNode event) {
        String d = null;
        for (JsonNode tag : event.path("tags")) {
            if (tag.path(0).asText().equals(Tags.ARTIFACT_ID)) {
                d = tag.path(1).asText();
            }
        }
        if (d == null) {
            return;
        }
        if (event.path("kind").asInt() == Kinds.REMOVAL_MARKER) {
            store.remove(d);
        } else {
            store.put(d, event.path("id").asText());
        }
    }

    boolean holds(String expectedDigest, long expectedCount) {
        if (!live || store.size() != expectedCount) {
            return false;
        }
        Digest digest = new Digest();
        store.forEach(digest::add);
        return digest.hex().equals(expectedDigest);
    }

    @Override
    public CompletionStage<?> onClose(WebSocket socket, int status, String reason) {
        closed.incrementAndGet();
        firstEose.completeExceptionally(new IllegalStateException("closed " + status + " " + reason));
        return CompletableFuture.completedFuture(null);
    }
}
