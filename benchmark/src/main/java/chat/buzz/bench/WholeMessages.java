package chat.buzz.bench;

import java.net.http.WebSocket;
import java.util.concurrent.CompletionStage;

/** A WebSocket listener that handles whole text messages (frames joined), always ready for the next one. */
public abstract class WholeMessages implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();

    /** @param receivedNanos {@link System#nanoTime()} when the message's first part arrived */
    protected abstract void onMessage(WebSocket socket, String text, long receivedNanos);

    private long firstPartNanos;

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
