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

    /**
     * @param hop which value of each list to believe, counted from the right (see {@link #trustedHop}); a
     *            shorter list (a proxy that replaced the header rather than appending to it) gives its
     *            left-most value
     * @return the origin the client used, with null parts where the proxy said nothing usable
     */
    static PublicOrigin origin(String proto, String host, String port, int hop) {
        return origin(fromRight(proto, hop), fromRight(host, hop), fromRight(port, hop));
    }

    /** The origin one {@code Forwarded} element records: its values are whole, never lists. */
    static PublicOrigin recorded(String proto, String host) {
        return origin(whole(proto), whole(host), Optional.empty());
    }

    private static PublicOrigin origin(Optional<String> proto, Optional<String> host, Optional<String> port) {
        String scheme = proto.map(s -> s.toLowerCase(Locale.ROOT))
                .filter(s -> s.equals("http") || s.equals("https"))
                .orElse(null);
        String authority = host.filter(h -> AUTHORITY.matcher(h).matches()).orElse(null);
        Optional<String> forwardedPort = port.filter(p -> p.matches("\\d{1,5}"));
        if (authority != null
                && forwardedPort.isPresent()
                && !hasPort(authority)
                && !forwardedPort.get().equals(defaultPort(scheme))) {
            authority = authority + ":" + forwardedPort.get();
        }
        return new PublicOrigin(scheme, authority);
    }

    /**
     * Which hop, counted from the right, a trusted proxy appended for the client. Each proxy appends one
     * hop naming the peer it saw; the right-most was appended by our peer, a trusted proxy, and a hop
     * further left is believed only while the hop to its right names a trusted proxy. So a value the
     * client itself sent, left of what the proxies appended, is never chosen.
     */
    static int trustedHop(String forwardedFor, Predicate<InetAddress> trusted) {
        if (forwardedFor == null) {
            return 0;
        }
        String[] hops = forwardedFor.split(",", -1);
        int hop = 0;
        while (hop < hops.length - 1
                && literal(hops[hops.length - 1 - hop].trim()).filter(trusted).isPresent()) {
            hop++;
        }
        return hop;
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

    private static Optional<String> fromRight(String header, int hop) {
        if (header == null) {
            return Optional.empty();
        }
        String[] values = header.split(",", -1);
        return whole(values[Math.max(0, values.length - 1 - hop)]);
    }

    private static Optional<String> whole(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    private static boolean hasPort(String authority) {
        int bracket = authority.lastIndexOf(']');
        return authority.indexOf(':', bracket + 1) >= 0;
    }

    private static String defaultPort(String scheme) {
        return "https".equals(scheme) ? "443" : "http".equals(scheme) ? "80" : null;
    }
}
