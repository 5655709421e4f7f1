package chat.buzz.protocol;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

public final class Sha256 {
    private Sha256() {}

    public static byte[] digest(byte[] data) {
        try {
            // MessageDigest instances are not thread-safe; a fresh one per call is cheap enough.
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime must provide SHA-256", e);
        }
    }

    public static String hex(byte[] data) {
        return Hex.encode(digest(data));
    }
}
