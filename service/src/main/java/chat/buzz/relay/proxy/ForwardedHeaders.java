package chat.buzz.relay.proxy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Reads X-Forwarded-Proto, -Host, -Port and -For as a trusted proxy sends them. Only called for a
 * connection from a trusted proxy; from anyone else these headers are ignored.
 */
final class ForwardedHeaders {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]+");
    private static final Pattern AUTHORITY =
            Pattern.compile("[A-Za-z0-9.\\-]+(:\\d{1,5})?|\\[[0-9A-Fa-f:.]+](:\\d{1,5})?");

    private ForwardedHeaders() {}

    /** @return the origin the client used, with null parts where the proxy said nothing usable */
    static PublicOrigin origin(String proto, String host, String port) {
        String scheme = first(proto)
                .map(s -> s.toLowerCase(Locale.ROOT))
                .filter(s -> s.equals("http") || s.equals("https"))
                .orElse(null);
        String authority =
                first(host).filter(h -> AUTHORITY.matcher(h).matches()).orElse(null);
        Optional<String> forwardedPort = first(port).filter(p -> p.matches("\\d{1,5}"));
        if (authority != null
                && forwardedPort.isPresent()
                && !hasPort(authority)
                && !forwardedPort.get().equals(defaultPort(scheme))) {
            authority = authority + ":" + forwardedPort.get();
        }
        return new PublicOrigin(scheme, authority);
    }

    /**
     * The client's address: walking X-Forwarded-For from the right (the hop our proxy added last), the
     * first address that is not itself a trusted proxy. What a client wrote further left is not believed.
     */
    static Optional<InetAddress> client(String forwardedFor, Predicate<InetAddress> trusted) {
        if (forwardedFor == null) {
            return Optional.empty();
        }
        String[] hops = forwardedFor.split(",");
        InetAddress leftmostTrusted = null;
        for (int i = hops.length - 1; i >= 0; i--) {
            Optional<InetAddress> hop = literal(hops[i].trim());
            if (hop.isEmpty()) {
                return Optional.ofNullable(leftmostTrusted);
            }
            if (!trusted.test(hop.get())) {
                return hop;
            }
            leftmostTrusted = hop.get();
        }
        return Optional.ofNullable(leftmostTrusted);
    }

    /** An IP literal, never a name: resolving names from a header would let clients make us query DNS. */
    private static Optional<InetAddress> literal(String value) {
        String address = value.startsWith("[") && value.contains("]") ? value.substring(1, value.indexOf(']')) : value;
        if (!IPV4.matcher(address).matches()
                && !(address.contains(":") && IPV6.matcher(address).matches())) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(address));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> first(String header) {
        if (header == null) {
            return Optional.empty();
        }
        String value = header.split(",", 2)[0].trim();
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    private static boolean hasPort(String authority) {
        int bracket = authority.lastIndexOf(']');
        return authority.indexOf(':', bracket + 1) >= 0;
    }

    private static String defaultPort(String scheme) {
        return "https".equals(scheme) ? "443" : "http".equals(scheme) ? "80" : null;
    }
}
