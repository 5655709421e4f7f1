package chat.buzz.relay.testing;

/** A shipped proxy configuration (deploy/nginx, deploy/caddy, deploy/haproxy) running in front of test relays. */
public interface ShippedProxy extends AutoCloseable {
    /** Where clients reach the fleet through it. */
    String baseUrl();
}
