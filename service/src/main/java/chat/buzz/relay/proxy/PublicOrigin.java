package chat.buzz.relay.proxy;

/**
 * Where the client believes it connected: the scheme and authority it signs into NIP-98 {@code u} and
 * NIP-42 {@code relay} tags, and whose host selects the community. Behind a trusted proxy they come
 * from its forwarded headers; otherwise from the configured public scheme and the Host header.
 */
public record PublicOrigin(String scheme, String authority) {
    /** The request attribute a trusted proxy's forwarded origin travels in; absent for everyone else. */
    public static final String ATTRIBUTE = PublicOrigin.class.getName();

    /**
     * @param forwarded the request's {@link #ATTRIBUTE}, or null
     * @param hostHeader the Host header as sent
     * @param publicScheme the configured scheme, used when no trusted proxy named one
     */
    public static PublicOrigin of(Object forwarded, String hostHeader, String publicScheme) {
        if (forwarded instanceof PublicOrigin origin) {
            return new PublicOrigin(
                    origin.scheme() == null ? publicScheme : origin.scheme(),
                    origin.authority() == null ? hostHeader : origin.authority());
        }
        return new PublicOrigin(publicScheme, hostHeader);
    }

    public String httpUrl(String pathAndQuery) {
        return scheme + "://" + authority + pathAndQuery;
    }

    public String webSocketUrl(String path) {
        return ("https".equals(scheme) ? "wss://" : "ws://") + authority + path;
    }
}
