package chat.buzz.relay.web;

/**
 * PostgreSQL's text and jsonb cannot hold U+0000, so a string bound for the database that contains it
 * fails deep inside a statement. Inputs are checked with this first and refused as a client error.
 */
public final class StorableText {
    private StorableText() {}

    public static boolean hasNul(String value) {
        return value != null && value.indexOf('\u0000') >= 0;
    }
}
