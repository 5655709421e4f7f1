package chat.buzz.bench;

import chat.buzz.protocol.FrameVerbs;
import chat.buzz.protocol.Nip42;
import chat.buzz.protocol.NostrKeys;
import java.net.http.WebSocket;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A WebSocket subscriber of one channel with its own key: joins frames into whole text messages, is
 * always ready for the next one, and knows how to answer AUTH (NIP-42) and subscribe (PROTOCOL 5).
 */
public abstract class ChannelListener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();
    private final NostrKeys keys;
    private final String url;
    private final UUID channel;
    private long firstPartNanos;
    private CompletableFuture<WebSocket> sending = CompletableFuture.completedFuture(null);

    protected ChannelListener(NostrKeys keys, String url, UUID channel) {
        this.keys = keys;
        this.url = url;
        this.channel = channel;
    }

    /** @param receivedNanos {@link System#nanoTime()} when the message's first part arrived */
    protected abstract void onMessage(WebSocket socket, String text, long receivedNanos);

    protected void answerAuth(WebSocket socket, String challenge) {
        send(
                socket,
                "[\"" + FrameVerbs.AUTH + "\","
                        + Nip42.authEvent(keys, url, challenge, System.currentTimeMillis() / 1000)
                                .toJson() + "]");
    }

    protected void subscribe(WebSocket socket, String subscription) {
        subscribe(socket, subscription, "\"#h\":[\"" + channel + "\"]");
    }

    /** A sync subscription (PROTOCOL 5) with the given filter keys after {@code "artifact":"sync"}, e.g. a scope. */
    protected void subscribe(WebSocket socket, String subscription, String moreKeys) {
        send(
                socket,
                "[\"" + FrameVerbs.REQ + "\",\"" + subscription + "\",{\"artifact\":\"sync\""
                        + (moreKeys.isEmpty() ? "" : "," + moreKeys) + "}]");
    }

    /**
     * The JDK refuses a send while the socket's previous one is still pending (the relay's OK to AUTH can
     * arrive before that send's future completes), so each send waits for the one before it.
     */
    private synchronized void send(WebSocket socket, String text) {
        sending = sending.thenCompose(previous -> socket.sendText(text, true));
    }

    /** The id of the event in an EVENT frame, found by looking for it rather than parsing; empty if none. */
    protected static String eventId(String frame) {
        int at = frame.indexOf("\"id\":\"");
        return at < 0 || at + 70 > frame.length() ? "" : frame.substring(at + 6, at + 70);
    }

    @Override
    public final CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
        if (partial.length() == 0) {
            firstPartNanos = System.nanoTime();
        }
        partial.append(data);
        if (last) {
            String text = partial.toString();
            partial.setLength(0);
            onMessage(socket, text, firstPartNanos);
        }
        socket.request(1);
        return null;
    }
}
