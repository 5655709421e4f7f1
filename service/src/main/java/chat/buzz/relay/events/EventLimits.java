package chat.buzz.relay.events;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Limits;
import chat.buzz.relay.web.StorableText;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** PROTOCOL 3.2 size limits, and what PostgreSQL cannot store, applied to every event the relay stores. */
public final class EventLimits {

    private EventLimits() {}

    public static void check(Event event) {
        if (event.tags().size() > Limits.MAX_TAGS) {
            throw WriteRejection.invalid("more than " + Limits.MAX_TAGS + " tags");
        }
        long total = 0;
        for (List<String> tag : event.tags()) {
            for (String value : tag) {
                if (StorableText.hasNul(value)) {
                    throw WriteRejection.invalid("tags must not contain NUL (U+0000)");
                }
                int bytes = utf8Length(value);
                if (bytes > Limits.MAX_TAG_VALUE_BYTES) {
                    throw WriteRejection.invalid("tag value longer than " + Limits.MAX_TAG_VALUE_BYTES + " bytes");
                }
                total += bytes;
            }
        }
        if (total > Limits.MAX_TAGS_BYTES) {
            throw WriteRejection.invalid("tags larger than " + Limits.MAX_TAGS_BYTES + " bytes");
        }
        if (StorableText.hasNul(event.content())) {
            throw WriteRejection.invalid("content must not contain NUL (U+0000)");
        }
        if (utf8Length(event.content()) > Limits.MAX_CONTENT_BYTES) {
            throw WriteRejection.invalid("content larger than " + Limits.MAX_CONTENT_BYTES + " bytes");
        }
    }

    public static int utf8Length(String value) {
        return value.getBytes(StandardCharsets.UTF_8).length;
    }
}
