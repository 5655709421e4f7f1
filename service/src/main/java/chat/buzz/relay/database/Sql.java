package chat.buzz.relay.database;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way the relay assembles a statement from fragments: a text block with named placeholders
 * ({@code <name>}, the spelling Jdbi's own templates use) filled by {@link #fill}. Every placeholder is
 * filled in one pass, and a fragment is not searched again, so a fragment may hold any text. A
 * placeholder with no fragment fails at once (a statement is assembled when its class loads or when a
 * read asks for it, and {@code <name>} must never reach PostgreSQL); a fragment the template does not
 * use is ignored, so a family of statements can share one set of fragments. Parameters stay
 * {@code :name} and are bound, never filled.
 */
public final class Sql {
    private static final Pattern PLACEHOLDER = Pattern.compile("<(\\w+)>");

    private Sql() {}

    /** {@code template} with each {@code <name>} replaced by {@code fragments.get(name)}. */
    public static String fill(String template, Map<String, String> fragments) {
        return PLACEHOLDER.matcher(template).replaceAll(found -> {
            String name = found.group(1);
            String fragment = fragments.get(name);
            if (fragment == null) {
                throw new IllegalArgumentException("no fragment for <" + name + "> in: " + template);
            }
            return Matcher.quoteReplacement(fragment);
        });
    }

    /** {@link #fill} with the fragments given as name, fragment, name, fragment, ... */
    public static String fill(String template, String... namesAndFragments) {
        if (namesAndFragments.length % 2 != 0) {
            throw new IllegalArgumentException("a name without its fragment");
        }
        Map<String, String> fragments = new HashMap<>();
        for (int i = 0; i < namesAndFragments.length; i += 2) {
            if (fragments.put(namesAndFragments[i], namesAndFragments[i + 1]) != null) {
                throw new IllegalArgumentException("<" + namesAndFragments[i] + "> given twice");
            }
        }
        return fill(template, fragments);
    }
}
