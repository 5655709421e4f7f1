package chat.buzz.relay.auth;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the replay guard's Redis is: a {@code redis://} URL ({@code rediss://} for TLS), in the form most
 * Redis clients and managed services print. Parsed here rather than by the client library so a mistake
 * stops the start with one line that says what is wrong, and so the log can name the server without the
 * password.
 */
public record RedisUrl(boolean tls, String host, int port, int database, String user, String password) {
    static final int DEFAULT_PORT = 6379;
    /** What a usable URL looks like, for the error that refuses one. */
    public static final String FORM =
            "redis://[user:password@]host[:port][/database], or rediss:// for TLS, e.g. redis://127.0.0.1:6379/0";

    /** @throws IllegalArgumentException saying what is wrong, never echoing the URL (it may hold a password) */
    public static RedisUrl parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("it is empty");
        }
        String lower = text.trim().toLowerCase(Locale.ROOT);
        if (!lower.startsWith("redis://") && !lower.startsWith("rediss://")) {
            throw new IllegalArgumentException("it must start with redis:// or rediss://");
        }
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("it is not a URL");
        }
        String scheme = uri.getScheme();
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            // java.net.URI leaves the host unset when the authority is not host[:port] (a port that is no number).
            throw new IllegalArgumentException("it names no host, or its port is not a number");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("it takes no query or fragment");
        }
        int port = uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("its port must be 1 to 65535");
        }
        return new RedisUrl(
                "rediss".equalsIgnoreCase(scheme),
                withoutBrackets(uri.getHost()),
                port,
                database(uri.getPath()),
                user(uri.getUserInfo()),
                password(uri.getUserInfo()));
    }

    /** What is wrong with {@code text} as a Redis URL; empty when it is usable. */
    public static Optional<String> problem(String text) {
        try {
            parse(text);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** host:port/database and whether TLS, never the credentials: for the log and the health check. */
    public String describe() {
        String address = host.contains(":") ? "[" + host + "]" : host;
        return (tls ? "rediss://" : "redis://") + address + ":" + port + "/" + database;
    }

    private static int database(String path) {
        if (path == null || path.isEmpty() || "/".equals(path)) {
            return 0;
        }
        String number = path.substring(1);
        if (!number.matches("[0-9]{1,5}")) {
            throw new IllegalArgumentException("its path must be the database number (/0, /1, ...)");
        }
        return Integer.parseInt(number);
    }

    private static String user(String userInfo) {
        if (userInfo == null) {
            return null;
        }
        int colon = userInfo.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(
                    "its credentials must be user:password, or :password for the default user");
        }
        return colon == 0 ? null : userInfo.substring(0, colon);
    }

    private static String password(String userInfo) {
        return userInfo == null ? null : userInfo.substring(userInfo.indexOf(':') + 1);
    }

    private static String withoutBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    @Override
    public String toString() {
        return describe();
    }
}
