package chat.buzz.relay.proxy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The standard {@code Forwarded} header (RFC 7239): comma-separated elements, one per proxy hop, each
 * semicolon-separated {@code name=value} pairs whose value may be a quoted string. Only {@code for},
 * {@code proto} and {@code host} are used; a trusted proxy that sends it is believed before X-Forwarded-*.
 */
record ForwardedHeader(List<Map<String, String>> elements) {

    /** @return the parsed hops, or empty elements when the header is absent */
    static ForwardedHeader parse(String header) {
        List<Map<String, String>> elements = new ArrayList<>();
        if (header != null) {
            for (String element : split(header, ',')) {
                Map<String, String> pairs = new LinkedHashMap<>();
                for (String pair : split(element, ';')) {
                    int equals = pair.indexOf('=');
                    String name =
                            equals < 0 ? "" : pair.substring(0, equals).strip().toLowerCase(Locale.ROOT);
                    if (!name.isEmpty()) {
                        pairs.putIfAbsent(
                                name, unquote(pair.substring(equals + 1).strip()));
                    }
                }
                if (!pairs.isEmpty()) {
                    elements.add(pairs);
                }
            }
        }
        return new ForwardedHeader(List.copyOf(elements));
    }

    boolean present() {
        return !elements.isEmpty();
    }

    /**
     * The scheme and host the client used: what the proxy the client reached recorded, the element
     * {@code hop} places from the right (see {@link ForwardedHeaders#trustedHop}), never one further left
     * that the client may have written itself.
     */
    PublicOrigin origin(int hop) {
        Map<String, String> recorded =
                elements.isEmpty() ? Map.of() : elements.get(Math.max(0, elements.size() - 1 - hop));
        return ForwardedHeaders.recorded(recorded.get("proto"), recorded.get("host"));
    }

    /**
     * The {@code for=} nodes in X-Forwarded-For form (ports dropped, IPv6 kept in brackets), so the client
     * is picked by the same right-to-left walk; an obfuscated or "unknown" node ends that walk.
     */
    String forwardedFor() {
        return elements.stream()
                .map(e -> node(e.getOrDefault("for", "unknown")))
                .collect(Collectors.joining(", "));
    }

    private static String node(String value) {
        if (value.startsWith("[")) {
            return value.contains("]") ? value.substring(0, value.indexOf(']') + 1) : value;
        }
        int colon = value.indexOf(':');
        return colon >= 0 && value.indexOf(':', colon + 1) < 0 ? value.substring(0, colon) : value;
    }

    /** Splits on the separator outside quoted strings. */
    private static List<String> split(String text, char separator) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted && c == '\\' && i + 1 < text.length()) {
                current.append(c).append(text.charAt(++i));
                continue;
            }
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == separator && !quoted) {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts;
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            return value.substring(1, value.length() - 1).replaceAll("\\\\(.)", "$1");
        }
        return value;
    }
}
