package chat.buzz.relay.events;

import chat.buzz.protocol.Event;
import chat.buzz.relay.web.StorableText;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** PROTOCOL 3.2 size limits, and what PostgreSQL cannot store, applied to every event the relay stores. */
public final class EventLimits {
    public static final int MAX_TAGS = 256;
    public static final int MAX_TAG_VALUE_BYTES = 4096;
    public static final int MAX_TAGS_BYTES = 64 * 1024;
    public static final int MAX_CONTENT_BYTES = 64 * 1024;

    private EventLimits() {}

    public static void check(Event event) {
        if (event.tags().size() > MAX_TAGS) {
            throw WriteRejection.invalid("more than " + MAX_TAGS + " tags");
        }
        long total = 0;
        for (List<String> tag : event.tags()) {
            for (String value : tag) {
                if (StorableText.hasNul(value)) {
                    throw WriteRejection.invalid("tags must not contain NUL (U+0000)");
                }
                int bytes = utf8Length(value);
                if (bytes > MAX_TAG_VALUE_BYTES) {
                    throw WriteRejection.invalid("tag value longer than " + MAX_TAG_VALUE_BYTES + " bytes");
                }
                total += bytes;
            }
        }
        if (total > MAX_TAGS_BYTES) {
            throw WriteRejection.invalid("tags larger than " + MAX_TAGS_BYTES + " bytes");
        }
        if (StorableText.hasNul(event.content())) {
            throw WriteRejection.invalid("content must not contain NUL (U+0000)");
        }
        if (utf8Length(event.content()) > MAX_CONTENT_BYTES) {
            throw WriteRejection.invalid("content larger than " + MAX_CONTENT_BYTES + " bytes");
        }
    }

    public static int utf8Length(String value) {
        return value.getBytes(StandardCharsets.UTF_8).length;
    }
}
