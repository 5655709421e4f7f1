package chat.buzz.protocol;

import java.util.Locale;
import java.util.Objects;

/**
 * URL equality for signed auth events. Split by hand rather than with java.net.URI so
 * that any string a client signs can be compared without exceptions, and so that
 * nothing is normalised beyond what the contract allows (case of scheme and authority,
 * one trailing '/').
 */
final class UrlMatch {
    private UrlMatch() {}

    static boolean sameResource(String signed, String actual) {
        Parts a = Parts.of(signed);
        Parts b = Parts.of(actual);
        return a != null
                && b != null
                && a.scheme.equals(b.scheme)
                && a.authority.equals(b.authority)
                && a.path.equals(b.path)
                && Objects.equals(a.query, b.query)
                && Objects.equals(a.fragment, b.fragment);
    }

    private record Parts(String scheme, String authority, String path, String query, String fragment) {
        static Parts of(String url) {
            if (url == null) {
                return null;
            }
            int schemeEnd = url.indexOf("://");
            if (schemeEnd <= 0) {
                return null;
            }
            String scheme = url.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
            String rest = url.substring(schemeEnd + 3);

            String fragment = null;
            int hash = rest.indexOf('#');
            if (hash >= 0) {
                fragment = rest.substring(hash + 1);
                rest = rest.substring(0, hash);
            }
            String query = null;
            int question = rest.indexOf('?');
            if (question >= 0) {
                query = rest.substring(question + 1);
                rest = rest.substring(0, question);
            }
            int slash = rest.indexOf('/');
            String authority = (slash >= 0 ? rest.substring(0, slash) : rest).toLowerCase(Locale.ROOT);
            if (authority.isEmpty()) {
                return null;
            }
            String path = slash >= 0 ? rest.substring(slash) : "";
            if (path.endsWith("/")) {
                path = path.substring(0, path.length() - 1);
            }
            return new Parts(scheme, authority, path, query, fragment);
        }
    }
}
