package chat.buzz.relay.database;

import java.util.regex.Pattern;

/**
 * The configuration substitutes environment variables leniently, so an unset {@code ${NAME}} stays in
 * the value as written; spotting it lets start-up errors say which variable is missing.
 */
public final class UnsetVariable {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{[A-Za-z_][A-Za-z0-9_]*}");

    private UnsetVariable() {}

    public static boolean isPlaceholder(String value) {
        return value != null && PLACEHOLDER.matcher(value.trim()).matches();
    }
}
