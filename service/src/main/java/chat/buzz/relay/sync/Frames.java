package chat.buzz.relay.sync;

import chat.buzz.protocol.FrameVerbs;
import com.fasterxml.jackson.core.io.JsonStringEncoder;

/**
 * The relay-to-client messages of NIP-01/NIP-42 as text. Events are spliced in as their stored
 * canonical JSON so a head goes out byte for byte as it was signed.
 */
final class Frames {
    private Frames() {}

    static String auth(String challenge) {
        return "[\"" + FrameVerbs.AUTH + "\"," + quote(challenge) + "]";
    }

    static String ok(String eventId, boolean accepted, String message) {
        return "[\"" + FrameVerbs.OK + "\"," + quote(eventId) + "," + accepted + "," + quote(message) + "]";
    }

    static String event(String subscription, String eventJson) {
        return "[\"" + FrameVerbs.EVENT + "\"," + quote(subscription) + "," + eventJson + "]";
    }

    static String eose(String subscription) {
        return "[\"" + FrameVerbs.EOSE + "\"," + quote(subscription) + "]";
    }

    static String closed(String subscription, String message) {
        return "[\"" + FrameVerbs.CLOSED + "\"," + quote(subscription) + "," + quote(message) + "]";
    }

    static String notice(String message) {
        return "[\"" + FrameVerbs.NOTICE + "\"," + quote(message) + "]";
    }

    private static String quote(String text) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text == null ? "" : text)) + "\"";
    }
}
