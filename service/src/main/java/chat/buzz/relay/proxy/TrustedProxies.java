package chat.buzz.relay.proxy;

import io.dropwizard.lifecycle.setup.LifecycleEnvironment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.InetAddressSet;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * Believes Forwarded (RFC 7239, preferred when present) and X-Forwarded-* only from the configured
 * proxy addresses (none by default). It runs in Jetty before any handler, so the servlet API, WebSocket upgrades and the request log all see the
 * client's address, and NIP-98, NIP-42 and tenancy see the origin the client used.
 */
public final class TrustedProxies implements HttpConfiguration.Customizer {
    private static final String ADMIN_CONNECTOR = "admin";
    private final InetAddressSet proxies = new InetAddressSet();

    /** @param addresses addresses, CIDR blocks ({@code 10.0.0.0/8}) or ranges ({@code 10.0.0.1-10.0.0.9}) */
    public TrustedProxies(List<String> addresses) {
        for (String address : addresses) {
            String trimmed = address.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            try {
                proxies.add(trimmed);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "BUZZ_TRUSTED_PROXIES (relay.trustedProxies): \"" + trimmed
                                + "\" is not an address, a CIDR block or a range",
                        e);
            }
        }
    }

    /** Adds itself to the application connectors (not the admin one) before the server starts. */
    public void installOn(LifecycleEnvironment lifecycle) {
        if (proxies.isEmpty()) {
            return;
        }
        lifecycle.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                if (event instanceof Server server) {
                    for (Connector connector : server.getConnectors()) {
                        if (connector instanceof ContainerLifeCycle container
                                && !ADMIN_CONNECTOR.equals(connector.getName())) {
                            // Dropwizard wraps the HTTP factory in a metrics one, so look inside the beans.
                            container
                                    .getContainedBeans(HttpConnectionFactory.class)
                                    .forEach(http -> firstIn(http.getHttpConfiguration()));
                        }
                    }
                }
            }
        });
    }

    /** First, so any other customizer already sees the client's address. */
    private void firstIn(HttpConfiguration configuration) {
        List<HttpConfiguration.Customizer> customizers = new ArrayList<>(configuration.getCustomizers());
        if (customizers.contains(this)) {
            return;
        }
        customizers.add(0, this);
        configuration.setCustomizers(customizers);
    }

    @Override
    public Request customize(Request request, HttpFields.Mutable responseHeaders) {
        SocketAddress remote = request.getConnectionMetaData().getRemoteSocketAddress();
        if (!(remote instanceof InetSocketAddress peer)
                || peer.getAddress() == null
                || !proxies.test(peer.getAddress())) {
            return request;
        }
        HttpFields headers = request.getHeaders();
        ForwardedHeader forwarded = ForwardedHeader.parse(headers.get(HttpHeader.FORWARDED));
        String forwardedFor = forwarded.present() ? forwarded.forwardedFor() : headers.get(HttpHeader.X_FORWARDED_FOR);
        int hop = ForwardedHeaders.trustedHop(forwardedFor, proxies);
        PublicOrigin origin = forwarded.present()
                ? forwarded.origin(hop)
                : ForwardedHeaders.origin(
                        headers.get("X-Forwarded-Proto"),
                        headers.get("X-Forwarded-Host"),
                        headers.get("X-Forwarded-Port"),
                        hop);
        request.setAttribute(PublicOrigin.ATTRIBUTE, origin);
        Optional<InetAddress> client = ForwardedHeaders.client(forwardedFor, proxies);
        return client.isEmpty() ? request : withRemoteAddress(request, new InetSocketAddress(client.get(), 0));
    }

    private static Request withRemoteAddress(Request request, SocketAddress client) {
        ConnectionMetaData connection = new ConnectionMetaData.Wrapper(request.getConnectionMetaData()) {
            @Override
            public SocketAddress getRemoteSocketAddress() {
                return client;
            }
        };
        return new Request.Wrapper(request) {
            @Override
            public ConnectionMetaData getConnectionMetaData() {
                return connection;
            }
        };
    }
}
