package chat.buzz.relay.database;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * BUZZ_DATABASE_URL as operators write it: a JDBC URL, or the {@code postgres://user:pass@host/db}
 * form most hosting tools print. Anything else stops the start with a message naming the variable,
 * instead of the driver's "returned null for URL".
 */
public record DatabaseUrl(String jdbcUrl, String user, String password) {
    private static final String JDBC_PREFIX = "jdbc:postgresql:";
    static final String VARIABLE = "BUZZ_DATABASE_URL (database.url)";

    /** @return the JDBC URL, and the user and password when the URL carried them (otherwise null) */
    public static DatabaseUrl parse(String raw) {
        return parse(raw, VARIABLE);
    }

    /** {@link #parse(String)} of a URL that messages call {@code variable}. */
    public static DatabaseUrl parse(String raw, String variable) {
        String url = raw == null ? "" : raw.trim();
        if (url.isEmpty() || UnsetVariable.isPlaceholder(url)) {
            throw new IllegalArgumentException(variable + " is not set; give a JDBC URL such as "
                    + "jdbc:postgresql://db.example:5432/buzz or a postgres://user:password@db.example:5432/buzz URL");
        }
        if (url.startsWith(JDBC_PREFIX)) {
            return new DatabaseUrl(url, null, null);
        }
        if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
            return fromLibpqUrl(url, variable);
        }
        throw new IllegalArgumentException(variable + " must start with jdbc:postgresql://, postgres:// or "
                + "postgresql://; got a URL starting with \"" + url.substring(0, Math.min(url.length(), 16)) + "\"");
    }

    private static DatabaseUrl fromLibpqUrl(String url, String variable) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(variable + " is not a valid URL: " + e.getReason());
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new IllegalArgumentException(variable + " names no host");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String jdbc = JDBC_PREFIX + "//"
                + uri.getRawAuthority().substring(uri.getRawAuthority().indexOf('@') + 1) + path
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        String user = null;
        String password = null;
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? null : decode(userInfo.substring(colon + 1));
        }
        return new DatabaseUrl(jdbc, user, password);
    }

    private static String decode(String part) {
        // URLDecoder would turn '+' into a space; in a URL's user info '+' is a plus.
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
