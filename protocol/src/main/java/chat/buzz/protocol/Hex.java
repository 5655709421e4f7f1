package chat.buzz.protocol;

/**
 * Lowercase hex, strictly. Nostr ids, keys and signatures are compared as text in
 * storage and filters, so accepting uppercase would let one value have two spellings.
 */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    public static String encode(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    public static byte[] decode(String hex, int expectedBytes) {
        if (hex == null) {
            throw new IllegalArgumentException("expected " + expectedBytes * 2 + " lowercase hex characters, got null");
        }
        if (hex.length() != expectedBytes * 2) {
            throw new IllegalArgumentException(
                    "expected " + expectedBytes * 2 + " lowercase hex characters, got " + hex.length() + " characters");
        }
        byte[] out = new byte[expectedBytes];
        for (int i = 0; i < expectedBytes; i++) {
            int hi = digit(hex.charAt(2 * i));
            int lo = digit(hex.charAt(2 * i + 1));
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("expected lowercase hex, found a character outside [0-9a-f]");
            }
            out[i] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    public static boolean isLowerHex(String s, int bytes) {
        if (s == null || s.length() != bytes * 2) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (digit(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }
}
