package chat.buzz.bench.fanout;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.FrameVerbs;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.websocket.jakarta.server.config.JakartaWebSocketServletContainerInitializer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The baseline the relay's fan-out is compared with: a naive in-memory relay on Jetty's WebSocket
 * server. NIP-01 REQ, EVENT, CLOSE and EOSE; no auth, no database, no checks of ids or signatures. It
 * keeps every event in memory and sends each new one to every subscription whose filter matches,
 * encoding the frame once per subscription. {@code POST /events} takes an event as the relay's write
 * API does (the Authorization header is ignored), so the same load generator drives both.
 */
@Command(name = "NaiveRelay", mixinStandardHelpOptions = true, description = "A naive in-memory NIP-01 relay.")
public final class NaiveRelay implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--port", defaultValue = "0", description = "port on 127.0.0.1 (0: any free one)")
    int port;

    private final List<JsonNode> stored = new CopyOnWriteArrayList<>();
    /** Per connection: its subscriptions by id. */
    private final Map<Session, Map<String, JsonNode>> subscriptions = new ConcurrentHashMap<>();

    public static void main(String[] args) {
        System.exit(new CommandLine(new NaiveRelay()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new Events()), "/events");
        JakartaWebSocketServletContainerInitializer.configure(
                context,
                (servletContext, container) ->
                        container.addEndpoint(ServerEndpointConfig.Builder.create(Connection.class, "/")
                                .configurator(new ServerEndpointConfig.Configurator() {
                                    @Override
                                    public <T> T getEndpointInstance(Class<T> type) {
                                        return type.cast(new Connection());
                                    }
                                })
                                .build()));
        server.setHandler(context);
        server.start();
        System.out.println("naive relay listening on 127.0.0.1:" + connector.getLocalPort());
        server.join();
        return 0;
    }

    /** Stores the event and sends it to every matching subscription, one frame encoded per subscription. */
    private void publish(JsonNode event) {
        stored.add(event);
        String json = event.toString();
        subscriptions.forEach((session, subs) -> subs.forEach((id, filter) -> {
            if (matches(filter, event)) {
                send(session, "[\"" + FrameVerbs.EVENT + "\"," + JSON.valueToTree(id) + "," + json + "]");
            }
        }));
    }

    private static void send(Session session, String text) {
        synchronized (session) {
            try {
                session.getBasicRemote().sendText(text);
            } catch (IOException | IllegalStateException gone) {
                // the subscriber left; its session is dropped on close
            }
        }
    }

    /** NIP-01: ids, authors, kinds, since, until and #x tag filters; other keys are not ours and match all. */
    static boolean matches(JsonNode filter, JsonNode event) {
        for (Iterator<Map.Entry<String, JsonNode>> it = filter.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> key = it.next();
            String name = key.getKey();
            JsonNode wanted = key.getValue();
            boolean ok = switch (name) {
                case "ids" -> contains(wanted, event.path("id").asText());
                case "authors" -> contains(wanted, event.path("pubkey").asText());
                case "kinds" -> contains(wanted, event.path("kind").asText());
                case "since" -> event.path("created_at").asLong() >= wanted.asLong();
                case "until" -> event.path("created_at").asLong() <= wanted.asLong();
                default -> !name.startsWith("#") || name.length() != 2 || hasTag(event, name.substring(1), wanted);
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasTag(JsonNode event, String tag, JsonNode wanted) {
        for (JsonNode t : event.path("tags")) {
            if (t.path(0).asText().equals(tag) && contains(wanted, t.path(1).asText())) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(JsonNode values, String value) {
        for (JsonNode v : values) {
            if (v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private void handle(Session session, String text) throws IOException {
        JsonNode message = JSON.readTree(text);
        switch (message.path(0).asText()) {
            case FrameVerbs.EVENT -> {
                publish(message.path(1));
                send(session, "[\"" + FrameVerbs.OK + "\"," + message.path(1).path("id") + ",true,\"\"]");
            }
            case FrameVerbs.REQ -> {
                String id = message.path(1).asText();
                JsonNode filter = message.path(2);
                for (JsonNode event : stored) {
                    if (matches(filter, event)) {
                        send(session, "[\"" + FrameVerbs.EVENT + "\"," + message.path(1) + "," + event + "]");
                    }
                }
                send(session, "[\"" + FrameVerbs.EOSE + "\"," + message.path(1) + "]");
                subscriptions
                        .computeIfAbsent(session, s -> new ConcurrentHashMap<>())
                        .put(id, filter);
            }
            case FrameVerbs.CLOSE ->
                subscriptions
                        .computeIfAbsent(session, s -> new ConcurrentHashMap<>())
                        .remove(message.path(1).asText());
            default -> send(session, "[\"" + FrameVerbs.NOTICE + "\",\"unknown message\"]");
        }
    }

    /** One WebSocket connection. */
    public final class Connection extends Endpoint {
        @Override
        public void onOpen(Session session, EndpointConfig config) {
            subscriptions.put(session, new ConcurrentHashMap<>());
            session.addMessageHandler(String.class, (MessageHandler.Whole<String>) text -> {
                try {
                    handle(session, text);
                } catch (IOException | RuntimeException bad) {
                    send(
                            session,
                            "[\"" + FrameVerbs.NOTICE + "\",\"" + ErrorCodes.INVALID_PREFIX
                                    + "not a NIP-01 message\"]");
                }
            });
        }

        @Override
        public void onClose(Session session, jakarta.websocket.CloseReason reason) {
            subscriptions.remove(session);
        }
    }

    /** {@code POST /events}: the relay's write API without its checks; answers as the relay does. */
    private final class Events extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            JsonNode event = JSON.readTree(request.getInputStream());
            publish(event);
            response.setContentType("application/json");
            response.getWriter().write("{\"event_id\":" + event.path("id") + ",\"accepted\":true,\"message\":\"\"}");
        }
    }
}
