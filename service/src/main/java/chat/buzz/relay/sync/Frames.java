package chat.buzz.relay.sync;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/**
 * The relay-to-client messages of NIP-01/NIP-42 as text. Events are spliced in as their stored
 * canonical JSON so a head goes out byte for byte as it was signed.
 */
final class Frames {
    private Frames() {}

    static String auth(String challenge) {
        return "[\"AUTH\"," + quote(challenge) + "]";
    }

    static String ok(String eventId, boolean accepted, String message) {
        return "[\"OK\"," + quote(eventId) + "," + accepted + "," + quote(message) + "]";
    }

    static String event(String subscription, String eventJson) {
        return "[\"EVENT\"," + quote(subscription) + "," + eventJson + "]";
    }

    static String eose(String subscription) {
        return "[\"EOSE\"," + quote(subscription) + "]";
    }

    static String closed(String subscription, String message) {
        return "[\"CLOSED\"," + quote(subscription) + "," + quote(message) + "]";
    }

    static String notice(String message) {
        return "[\"NOTICE\"," + quote(message) + "]";
    }

    private static String quote(String text) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text == null ? "" : text)) + "\"";
    }
}
