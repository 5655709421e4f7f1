package chat.buzz.relay.incremental;

import java.math.BigInteger;

/** What the digest query answers: |D| and the XOR as a bit string, null for an empty set. */
record DigestRow(long count, String bits) {
    private static final int HEX_DIGITS = 64;

    String hex() {
        if (bits == null) {
            return "0".repeat(HEX_DIGITS);
        }
        String hex = new BigInteger(bits, 2).toString(16);
        return "0".repeat(HEX_DIGITS - hex.length()) + hex;
    }
}
