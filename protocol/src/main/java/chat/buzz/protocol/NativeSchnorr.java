package chat.buzz.protocol;

import fr.acinq.secp256k1.Secp256k1;
import java.util.Arrays;

/**
 * BIP-340 by libsecp256k1 through ACINQ's JNI binding, whose jar carries the native library. The
 * binding takes 32-byte messages only (every Nostr id is one); other lengths, which only the official
 * vectors use, are checked by BouncyCastle.
 */
final class NativeSchnorr implements SchnorrVerifier {
    private final Secp256k1 library;

    private NativeSchnorr(Secp256k1 library) {
        this.library = library;
    }

    /**
     * Loads the native library and checks that it agrees with BouncyCastle on a signature and on a
     * forgery of it: a library that loads but answers wrongly must never be the one in use.
     *
     * @throws IllegalStateException when it does not load here or does not agree
     */
    static NativeSchnorr load() {
        NativeSchnorr verifier;
        try {
            verifier = new NativeSchnorr(Secp256k1.get());
        } catch (RuntimeException | LinkageError e) {
            throw new IllegalStateException("libsecp256k1 did not load: " + e, e);
        }
        byte[] secretKey = new byte[32];
        Arrays.fill(secretKey, (byte) 7);
        byte[] message = Sha256.digest(new byte[] {1, 2, 3});
        byte[] publicKey = Bip340.publicKey(secretKey);
        byte[] signature = Bip340.sign(secretKey, message, new byte[32]);
        byte[] forged = signature.clone();
        forged[63] ^= 1;
        if (!verifier.verify(publicKey, message, signature) || verifier.verify(publicKey, message, forged)) {
            throw new IllegalStateException("libsecp256k1 loaded but disagrees with BouncyCastle on a known signature");
        }
        return verifier;
    }

    @Override
    public String name() {
        return "libsecp256k1";
    }

    @Override
    public boolean verify(byte[] publicKey32, byte[] message, byte[] signature64) {
        if (!Bip340.wellFormed(publicKey32, message, signature64)) {
            return false;
        }
        if (message.length != 32) {
            return BouncyCastleSchnorr.INSTANCE.verify(publicKey32, message, signature64);
        }
        try {
            return library.verifySchnorr(signature64, message, publicKey32);
        } catch (RuntimeException e) {
            // Secp256k1Exception: a public key that is no point of the curve, for instance.
            return false;
        }
    }
}
