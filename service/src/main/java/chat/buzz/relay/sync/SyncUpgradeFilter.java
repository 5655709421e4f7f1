package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.community.Community;
import chat.buzz.relay.community.CommunityDirectory;
import chat.buzz.relay.proxy.PublicOrigin;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * Upgrades {@code GET /} with {@code Upgrade: websocket} to a sync connection. Tenancy is decided
 * here, before the handshake, so an unknown Host is a plain 404 like every other request; each
 * upgrade gets an endpoint that already knows its community and relay URL.
 *
 * <p>A handshake Jetty would refuse by throwing (a version other than 13, no key) is answered here as
 * the client's error it is: 426 naming the version this relay speaks (RFC 6455 4.4), or 400.
 */
final class SyncUpgradeFilter implements Filter {
    static final String PATH = "/";
    private static final String VERSION = "13";

    private final CommunityDirectory communities;
    private final SyncContext context;
    private final String publicScheme;

    SyncUpgradeFilter(CommunityDirectory communities, SyncContext context, String publicScheme) {
        this.communities = communities;
        this.context = context;
        this.publicScheme = publicScheme;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        if (!(req instanceof HttpServletRequest request)
                || !(res instanceof HttpServletResponse response)
                || !isUpgrade(request)) {
            chain.doFilter(req, res);
            return;
        }
        PublicOrigin origin =
                PublicOrigin.of(request.getAttribute(PublicOrigin.ATTRIBUTE), request.getHeader("Host"), publicScheme);
        Optional<Community> community = communities.forHostHeader(origin.authority());
        if (community.isEmpty()) {
            refuse(response, 404, ErrorCodes.UNKNOWN_COMMUNITY);
            return;
        }
        if (!VERSION.equals(request.getHeader("Sec-WebSocket-Version"))) {
            response.setHeader("Sec-WebSocket-Version", VERSION);
            refuse(
                    response,
                    426,
                    ErrorCodes.INVALID_PREFIX + "this relay speaks WebSocket version " + VERSION + " only");
            return;
        }
        if (!isNonce(request.getHeader("Sec-WebSocket-Key"))) {
            refuse(
                    response,
                    400,
                    ErrorCodes.INVALID_PREFIX + "a WebSocket upgrade needs a Sec-WebSocket-Key of 16 bytes in base64");
            return;
        }
        // NIP-42: the client signs the URL it connected to: its Host header, or what a trusted proxy forwarded.
        String relayUrl = origin.webSocketUrl(PATH);
        String address = request.getRemoteAddr();
        ServerContainer container =
                (ServerContainer) request.getServletContext().getAttribute(ServerContainer.class.getName());
        ServerEndpointConfig config = ServerEndpointConfig.Builder.create(SyncEndpoint.class, PATH)
                .configurator(new ServerEndpointConfig.Configurator() {
                    @Override
                    public <T> T getEndpointInstance(Class<T> endpointClass) {
                        return endpointClass.cast(new SyncEndpoint(context, community.get(), relayUrl, address));
                    }
                })
                .build();
        try {
            container.upgradeHttpToWebSocket(request, response, config, Map.of());
        } catch (DeploymentException e) {
            throw new ServletException("WebSocket upgrade failed", e);
        }
    }

    /** The error is fixed text, never the client's: a literal JSON string needs no escaping. */
    private static void refuse(HttpServletResponse response, int status, String error) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.getOutputStream()
                .write(("{\"" + ErrorCodes.ERROR_FIELD + "\":\"" + error + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    /** RFC 6455 4.1: the key is a random 16-byte value, base64-encoded. */
    private static boolean isNonce(String key) {
        if (key == null) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key.strip()).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isUpgrade(HttpServletRequest request) {
        String path = request.getRequestURI();
        return "GET".equals(request.getMethod())
                && "websocket".equalsIgnoreCase(request.getHeader("Upgrade"))
                && (PATH.equals(path) || path.isEmpty());
    }
}
