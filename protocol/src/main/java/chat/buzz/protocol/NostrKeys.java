package chat.buzz.protocol;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;

/** A key pair. Holds the secret, so it is deliberately not a record: no accessor leaks it and toString hides it. */
public final class NostrKeys {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] secretKey;
    private final String publicKeyHex;

    private NostrKeys(byte[] secretKey) {
        this.secretKey = secretKey;
        this.publicKeyHex = Hex.encode(Bip340.publicKey(secretKey));
    }

    public static NostrKeys generate() {
        byte[] candidate = new byte[32];
        do {
            RANDOM.nextBytes(candidate);
        } while (!Bip340.isValidSecretKey(candidate));
        return new NostrKeys(candidate);
    }

    public static NostrKeys fromSecretHex(String hex) {
        byte[] secret = Hex.decode(hex, 32);
        if (!Bip340.isValidSecretKey(secret)) {
            throw new IllegalArgumentException("secret key must be in the range 1..n-1");
        }
        return new NostrKeys(secret);
    }

    public String publicKeyHex() {
        return publicKeyHex;
    }

    public byte[] secretKey() {
        return secretKey.clone();
    }

    public Event sign(int kind, long createdAt, List<List<String>> tags, String content) {
        return sign(kind, createdAt, tags, content, Bip340.freshAuxRand());
    }

    /**
     * Signs with all-zero auxiliary randomness (allowed by BIP-340: the nonce still derives from the secret
     * key and the id), so the same event content always gets the same signature. For events the relay
     * re-creates on every read, where repeated reads of one state must be byte for byte identical.
     */
    public Event signReproducibly(int kind, long createdAt, List<List<String>> tags, String content) {
        return sign(kind, createdAt, tags, content, new byte[32]);
    }

    private Event sign(int kind, long createdAt, List<List<String>> tags, String content, byte[] auxRand) {
        String payload = CanonicalJson.idPayload(publicKeyHex, createdAt, kind, tags, content);
        byte[] id = Sha256.digest(payload.getBytes(StandardCharsets.UTF_8));
        String sig = Hex.encode(Bip340.sign(secretKey, id, auxRand));
        return new Event(Hex.encode(id), publicKeyHex, createdAt, kind, tags, content, sig);
    }

    @Override
    public String toString() {
        return "NostrKeys[pubkey=" + publicKeyHex + "]";
    }
}
