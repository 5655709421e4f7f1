package chat.buzz.client.cli;

import java.util.Locale;
import java.util.regex.Pattern;

/** Checks ids and keys given on the command line before anything reaches the relay (a wrong one is exit 2). */
final class Arguments {
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern PUBKEY = Pattern.compile("[0-9a-f]{64}");

    private Arguments() {}

    /** A channel or artifact id: a lowercase hyphenated UUID (PROTOCOL 3.1, 3.2); upper case is lowered. */
    static String uuid(String what, String value) {
        String lowered = value == null ? null : value.toLowerCase(Locale.ROOT);
        if (lowered == null || !UUID.matcher(lowered).matches()) {
            throw new UsageProblem(what + " takes a lowercase hyphenated UUID"
                    + " (e.g. 0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00), not '" + value + "'");
        }
        return lowered;
    }

    /** Whether {@code value} is a UUID in either case, as opposed to a channel name. */
    static boolean isUuid(String value) {
        return value != null && UUID.matcher(value.toLowerCase(Locale.ROOT)).matches();
    }

    /** A public key: 64 hex digits, either case (written lowercase, as events carry it). */
    static String pubkey(String value) {
        String lowered = value.toLowerCase(Locale.ROOT);
        if (!PUBKEY.matcher(lowered).matches()) {
            throw new UsageProblem(
                    "a public key is 64 hex digits (as keygen and whoami print it), not '" + value + "'");
        }
        return lowered;
    }
}
