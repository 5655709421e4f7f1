package chat.buzz.bench;

import chat.buzz.protocol.Nip42;
import chat.buzz.protocol.NostrKeys;
import java.net.http.WebSocket;
import java.util.UUID;
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

    protected ChannelListener(NostrKeys keys, String url, UUID channel) {
        this.keys = keys;
        this.url = url;
        this.channel = channel;
    }

    /** @param receivedNanos {@link System#nanoTime()} when the message's first part arrived */
    protected abstract void onMessage(WebSocket socket, String text, long receivedNanos);

    protected void answerAuth(WebSocket socket, String challenge) {
        socket.sendText(
                "[\"AUTH\","
                        + Nip42.authEvent(keys, url, challenge, System.currentTimeMillis() / 1000)
                                .toJson() + "]",
                true);
    }

    protected void subscribe(WebSocket socket, String subscription) {
        socket.sendText(
                "[\"REQ\",\"" + subscription + "\",{\"artifact\":\"sync\",\"#h\":[\"" + channel + "\"]}]", true);
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
