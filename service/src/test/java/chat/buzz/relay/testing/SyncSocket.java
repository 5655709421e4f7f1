package chat.buzz.relay.testing;

import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Nip42;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A sync client written from PROTOCOL.md with the JDK's WebSocket: it keeps, per subscription,
 * the store a real client would (an EVENT of a revision puts the head under d, one of a removal marker drops d).
 * {@link #pause()} stops reading from the socket, as a stalled client would.
 */
public final class SyncSocket implements WebSocket.Listener, AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String url;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    /** The text of every message, as it came: for checks that frames are byte for byte what they were. */
    private final List<String> receivedTexts = new CopyOnWriteArrayList<>();

    private final Map<String, Map<String, JsonNode>> stores = new ConcurrentHashMap<>();
    private final Map<String, Boolean> eose = new ConcurrentHashMap<>();
    private final Map<String, String> closedSubscriptions = new ConcurrentHashMap<>();
    private final CompletableFuture<String> closed = new CompletableFuture<>();
    private final StringBuilder partial = new StringBuilder();
    /** Logical subscription → its current id; a sync_reset moves it to a fresh id with an empty store. */
    private final Map<String, String> live = new ConcurrentHashMap<>();

    private final Map<String, String> liveFilters = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger resubscriptions =
            new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean paused;
    private volatile WebSocket socket;
    private CompletableFuture<?> sending = CompletableFuture.completedFuture(null);

    private SyncSocket(String url) {
        this.url = url;
    }

    /** @param baseUrl the relay's http://host:port */
    public static SyncSocket connect(String baseUrl) {
        String url = baseUrl.replaceFirst("^http", "ws") + "/";
        SyncSocket client = new SyncSocket(url);
        client.socket = HTTP.newWebSocketBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .buildAsync(URI.create(url), client)
                .join();
        return client;
    }

    /**
     * Connects to {@code baseUrl} as if through a proxy: {@code headers} go with the upgrade and AUTH signs
     * {@code publicUrl}, the address the client believes it connected to.
     */
    public static SyncSocket connectVia(String baseUrl, String publicUrl, Map<String, String> headers) {
        SyncSocket client = new SyncSocket(publicUrl);
        WebSocket.Builder builder = HTTP.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
        headers.forEach(builder::header);
        client.socket = builder.buildAsync(URI.create(baseUrl.replaceFirst("^http", "ws") + "/"), client)
                .join();
        return client;
    }

    public String url() {
        return url;
    }

    public String challenge() {
        return awaitMessage(m -> verb(m).equals("AUTH")).get(1).asText();
    }

    /** Answers the challenge and returns the relay's OK. */
    public JsonNode authenticate(NostrKeys keys) {
        return sendAuth(Nip42.authEvent(keys, url, challenge(), Nostr.now()));
    }

    public JsonNode sendAuth(Event event) {
        send("[\"AUTH\"," + event.toJson() + "]");
        return awaitMessage(m -> verb(m).equals("OK") && m.get(1).asText().equals(event.id()));
    }

    public void authenticateOk(NostrKeys keys) {
        JsonNode ok = authenticate(keys);
        if (!ok.get(2).asBoolean()) {
            throw new AssertionError("AUTH refused: " + ok);
        }
    }

    public void subscribe(String subscription, String filterJson) {
        stores.put(subscription, new ConcurrentHashMap<>());
        send("[\"REQ\"," + quote(subscription) + "," + filterJson + "]");
    }

    /**
     * Subscribes the way PROTOCOL 5 tells clients to: on {@code sync_reset} it subscribes again,
     * under a new id so nothing of the old subscription mixes into the new store.
     */
    public void subscribeLive(String name, String filterJson) {
        liveFilters.put(name, filterJson);
        String id = name + "-0";
        live.put(name, id);
        subscribe(id, filterJson);
    }

    /** The store of a live subscription's current id. */
    public Map<String, JsonNode> liveStore(String name) {
        return store(live.get(name));
    }

    public boolean liveAtEose(String name) {
        return hasEose(live.get(name));
    }

    public int resubscriptions() {
        return resubscriptions.get();
    }

    public void send(String text) {
        sendAsync(text).join();
    }

    /** The JDK refuses a send while another is pending, so sends are chained one after the other. */
    private synchronized CompletableFuture<?> sendAsync(String text) {
        sending = sending.handle((ok, error) -> null).thenCompose(ignored -> socket.sendText(text, true));
        return sending;
    }

    public void sendBinary(byte[] bytes) {
        synchronized (this) {
            sending = sending.handle((ok, error) -> null)
                    .thenCompose(ignored -> socket.sendBinary(java.nio.ByteBuffer.wrap(bytes), true));
        }
        sending.join();
    }

    public void pause() {
        paused = true;
    }

    public void resume() {
        paused = false;
        socket.request(1);
    }

    public List<JsonNode> received() {
        return List.copyOf(received);
    }

    public List<String> receivedTexts() {
        return List.copyOf(receivedTexts);
    }

    public JsonNode awaitMessage(Predicate<JsonNode> matching) {
        return await().atMost(Duration.ofSeconds(30))
                .until(() -> find(matching), Optional::isPresent)
                .get();
    }

    public Optional<JsonNode> find(Predicate<JsonNode> matching) {
        return received.stream().filter(matching).findFirst();
    }

    public boolean hasEose(String subscription) {
        return eose.containsKey(subscription);
    }

    public void awaitEose(String subscription) {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> hasEose(subscription) || closedSubscriptions.containsKey(subscription));
        if (!hasEose(subscription)) {
            throw new AssertionError(
                    "subscription " + subscription + " closed: " + closedSubscriptions.get(subscription));
        }
    }

    /** The reason of {@code ["CLOSED", subscription, reason]}, once it arrived. */
    public Optional<String> closedReason(String subscription) {
        return Optional.ofNullable(closedSubscriptions.get(subscription));
    }

    public String awaitClosed(String subscription) {
        return await().atMost(Duration.ofSeconds(30))
                .until(() -> closedReason(subscription), Optional::isPresent)
                .get();
    }

    /** d → head event of one subscription's store. */
    public Map<String, JsonNode> store(String subscription) {
        return Map.copyOf(stores.getOrDefault(subscription, Map.of()));
    }

    public CompletableFuture<String> closedConnection() {
        return closed;
    }

    /** Waits for the relay to close the connection with 1008 and returns the last NOTICE's text before it. */
    public String awaitNoticeAndPolicyClose() {
        String close = closed.orTimeout(30, TimeUnit.SECONDS).join();
        if (!close.startsWith("1008")) {
            throw new AssertionError("closed with " + close + ", not 1008");
        }
        JsonNode last = received.get(received.size() - 1);
        if (!verb(last).equals("NOTICE")) {
            throw new AssertionError("the last message before the close was " + last + ", not a NOTICE");
        }
        return last.get(1).asText();
    }

    public static String verb(JsonNode message) {
        return message.path(0).asText();
    }

    @Override
    public void onOpen(WebSocket webSocket) {
        webSocket.request(1);
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
        partial.append(data);
        if (last) {
            String text = partial.toString();
            partial.setLength(0);
            receivedTexts.add(text);
            apply(parse(text));
        }
        if (!paused) {
            webSocket.request(1);
        }
        return null;
    }

    @Override
    public CompletionStage<?> onPing(WebSocket webSocket, ByteBuffer message) {
        if (!paused) {
            webSocket.request(1);
        }
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closed.complete(statusCode + " " + reason);
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closed.complete("error " + error);
    }

    private void apply(JsonNode message) {
        // First, so that whatever a store shows has already been received (a quiet point waits on a store,
        // then replays what was received).
        received.add(message);
        String subscription = message.path(1).asText();
        switch (verb(message)) {
            case "EVENT" -> {
                JsonNode event = message.get(2);
                Map<String, JsonNode> store = stores.get(subscription);
                if (store != null) {
                    String d = tag(event, Tags.ARTIFACT_ID);
                    if (event.get("kind").asInt() == Kinds.ARTIFACT_REVISION) {
                        store.put(d, event);
                    } else if (event.get("kind").asInt() == Kinds.REMOVAL_MARKER) {
                        store.remove(d);
                    }
                }
            }
            case "EOSE" -> eose.put(subscription, true);
            case "CLOSED" -> {
                closedSubscriptions.put(subscription, message.path(2).asText());
                if (message.path(2).asText().startsWith("sync_reset:")) {
                    resubscribe(subscription);
                }
            }
            default -> {}
        }
    }

    private void resubscribe(String closedId) {
        live.forEach((name, id) -> {
            if (id.equals(closedId)) {
                String next = name + "-" + resubscriptions.incrementAndGet();
                live.put(name, next);
                stores.put(next, new ConcurrentHashMap<>());
                // Not joined: this runs on the listener thread, which must keep reading.
                sendAsync("[\"REQ\"," + quote(next) + "," + liveFilters.get(name) + "]");
            }
        });
    }

    public static String tag(JsonNode event, String name) {
        for (JsonNode tag : event.get("tags")) {
            if (tag.get(0).asText().equals(name)) {
                return tag.get(1).asText();
            }
        }
        return null;
    }

    public static List<String> tagNames(JsonNode event) {
        List<String> names = new ArrayList<>();
        event.get("tags").forEach(tag -> names.add(tag.get(0).asText()));
        return names;
    }

    public static JsonNode parseFrame(String text) {
        return parse(text);
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException("relay sent non-JSON: " + text, e);
        }
    }

    private static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (!socket.isOutputClosed()) {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye");
        }
        socket.abort();
    }
}
