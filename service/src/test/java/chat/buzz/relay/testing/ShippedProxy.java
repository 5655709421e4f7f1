package chat.buzz.relay.testing;

/** A shipped proxy configuration (deploy/nginx, deploy/caddy, deploy/haproxy) running in front of test relays. */
public interface ShippedProxy extends AutoCloseable {
    /** Where clients reach the fleet through it. */
    String baseUrl();

    /** What the proxy logged, for a failing test's message; empty where the test does not keep it. */
    default String log() throws java.io.IOException {
        return "";
    }
}
