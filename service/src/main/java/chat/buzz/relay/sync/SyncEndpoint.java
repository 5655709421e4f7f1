package chat.buzz.relay.sync;

import chat.buzz.relay.community.Community;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.PongMessage;
import jakarta.websocket.Session;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.websocket.jakarta.common.JakartaWebSocketSession;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.OpCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Jakarta side of one connection; everything it hears goes to its {@link SyncSession}. */
public final class SyncEndpoint extends Endpoint {
    private static final Logger LOG = LoggerFactory.getLogger(SyncEndpoint.class);
    private static final long CLOSE_GRACE_MILLIS = 2_000;

    private final SyncContext context;
    private final Community community;
    private final String relayUrl;
    private final String address;
    private SyncSession connection;

    SyncEndpoint(SyncContext context, Community community, String relayUrl, String address) {
        this.context = context;
        this.community = community;
        this.relayUrl = relayUrl;
        this.address = address;
    }

    @Override
    public void onOpen(Session session, EndpointConfig config) {
        session.setMaxTextMessageBufferSize(context.config().getMaxMessageBytes());
        session.setMaxBinaryMessageBufferSize(context.config().getMaxMessageBytes());
        // A backstop for sockets that stop moving entirely; pings keep healthy ones busy well within it.
        session.setMaxIdleTimeout(2_000L * context.config().getIdleTimeoutSeconds());
        connection = new SyncSession(context, community, relayUrl, address, new SessionSink(session));
        session.addMessageHandler(String.class, (MessageHandler.Whole<String>) connection::onMessage);
        session.addMessageHandler(PongMessage.class, (MessageHandler.Whole<PongMessage>) pong -> connection.heard());
        session.addMessageHandler(ByteBuffer.class, (MessageHandler.Whole<ByteBuffer>) bytes -> connection.onBinary());
        connection.opened();
    }

    @Override
    public void onClose(Session session, CloseReason closeReason) {
        if (connection != null) {
            connection.closed();
        }
    }

    @Override
    public void onError(Session session, Throwable error) {
        LOG.debug("Sync connection error", error);
    }

    private record SessionSink(Session session) implements Outbox.Sink {
        @Override
        public void send(String frame, Consumer<Throwable> done) {
            try {
                session.getAsyncRemote()
                        .sendText(frame, result -> done.accept(result.isOK() ? null : result.getException()));
            } catch (RuntimeException e) {
                done.accept(e);
            }
        }

        @Override
        public void close(String reason) {
            closeLater(new CloseReason(CloseReason.CloseCodes.VIOLATED_POLICY, reason));
        }

        @Override
        public void goAway(String reason) {
            closeLater(new CloseReason(CloseReason.CloseCodes.GOING_AWAY, reason));
        }

        private void closeLater(CloseReason closeReason) {
            // The last words were just handed to the socket; closing at once can reset the connection
            // before a client that only now resumed reading has seen them.
            CompletableFuture.delayedExecutor(CLOSE_GRACE_MILLIS, TimeUnit.MILLISECONDS)
                    .execute(() -> {
                        try {
                            session.close(closeReason);
                        } catch (IOException | RuntimeException e) {
                            LOG.debug("Closing a sync connection failed", e);
                        }
                    });
        }

        /**
         * Jetty's Jakarta {@code sendPing} blocks until the frame is written, so one client that stopped
         * reading would hold the sync timer thread, and every other connection's pings, for good. The
         * core session queues the ping without waiting, ahead of queued data.
         */
        @Override
        public void ping() {
            if (!(session instanceof JakartaWebSocketSession jakarta)) {
                throw new IllegalStateException("not a Jetty WebSocket session: " + session.getClass());
            }
            jakarta.getCoreSession()
                    .sendFrame(
                            new Frame(OpCode.PING),
                            Callback.from(() -> {}, error -> LOG.debug("Ping failed", error)),
                            false);
        }
    }
}
