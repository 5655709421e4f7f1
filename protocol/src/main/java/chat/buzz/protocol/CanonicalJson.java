package chat.buzz.protocol;

import java.util.List;

/**
 * The NIP-01 serialization that event ids are hashed over. Every relay and client must
 * produce these exact bytes, so a general-purpose JSON writer (which may escape '/',
 * U+2028 or non-ASCII) cannot be used here.
 */
public final class CanonicalJson {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CanonicalJson() {}

    public static String idPayload(String pubkey, long createdAt, int kind, List<List<String>> tags, String content) {
        StringBuilder sb = new StringBuilder(128 + content.length());
        sb.append("[0,");
        appendString(sb, pubkey);
        sb.append(',').append(createdAt).append(',').append(kind).append(',');
        appendTags(sb, tags);
        sb.append(',');
        appendString(sb, content);
        sb.append(']');
        return sb.toString();
    }

    public static void appendTags(StringBuilder sb, List<List<String>> tags) {
        sb.append('[');
        for (int i = 0; i < tags.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            List<String> tag = tags.get(i);
            sb.append('[');
            for (int j = 0; j < tag.size(); j++) {
                if (j > 0) {
                    sb.append(',');
                }
                appendString(sb, tag.get(j));
            }
            sb.append(']');
        }
        sb.append(']');
    }

    public static void appendString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20) {
                        sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
