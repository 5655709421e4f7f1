package chat.buzz.protocol;

import java.math.BigInteger;
import java.security.SecureRandom;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.BIP340Signer;
import org.bouncycastle.util.BigIntegers;

/**
 * BIP-340 Schnorr over secp256k1: signing via BouncyCastle, checks by {@link SchnorrVerifiers}.
 * Nostr only ever signs 32-byte ids, so the public methods insist on that; the any-length variants
 * exist for the official test vectors that exercise other message sizes.
 */
public final class Bip340 {
    private static final ECDomainParameters DOMAIN = BIP340Signer.getDomain();
    private static final SecureRandom RANDOM = new SecureRandom();

    private Bip340() {}

    public static byte[] publicKey(byte[] secretKey32) {
        BigInteger d = secretScalar(secretKey32);
        return BigIntegers.asUnsignedByteArray(
                32, DOMAIN.getG().multiply(d).normalize().getAffineXCoord().toBigInteger());
    }

    public static byte[] sign(byte[] secretKey32, byte[] message32) {
        return sign(secretKey32, message32, freshAuxRand());
    }

    /** 32 random bytes: the auxiliary randomness BIP-340 recommends against side-channel attacks. */
    static byte[] freshAuxRand() {
        byte[] aux = new byte[32];
        RANDOM.nextBytes(aux);
        return aux;
    }

    public static byte[] sign(byte[] secretKey32, byte[] message32, byte[] auxRand32) {
        requireLength(message32, 32, "message");
        return signAnyLength(secretKey32, message32, auxRand32);
    }

    /**
     * Never throws: any malformed input is simply not a valid signature. Checked by the process's
     * verifier ({@link SchnorrVerifiers#chosen()}), native where it loads.
     */
    public static boolean verify(byte[] publicKey32, byte[] message32, byte[] signature64) {
        return message32 != null
                && message32.length == 32
                && SchnorrVerifiers.chosen().verify(publicKey32, message32, signature64);
    }

    static byte[] signAnyLength(byte[] secretKey32, byte[] message, byte[] auxRand32) {
        requireLength(auxRand32, 32, "aux_rand");
        if (message == null) {
            throw new IllegalArgumentException("message must not be null");
        }
        ECPrivateKeyParameters key = new ECPrivateKeyParameters(secretScalar(secretKey32), DOMAIN);
        BIP340Signer signer = new BIP340Signer(false);
        // BouncyCastle draws aux_rand from the SecureRandom it is given; feeding it the
        // caller's bytes is what makes signatures reproducible against the vectors.
        signer.init(true, new ParametersWithRandom(key, new FixedAuxRand(auxRand32)));
        signer.update(message, 0, message.length);
        return signer.generateSignature();
    }

    /** BouncyCastle's check, for any message length. */
    static boolean verifyAnyLength(byte[] publicKey32, byte[] message, byte[] signature64) {
        if (!wellFormed(publicKey32, message, signature64)) {
            return false;
        }
        try {
            ECPublicKeyParameters key = BIP340Signer.decodePublicKey(publicKey32);
            if (key == null) {
                return false;
            }
            BIP340Signer signer = new BIP340Signer();
            signer.init(false, key);
            signer.update(message, 0, message.length);
            return signer.verifySignature(signature64);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** A 32-byte key, a message and a 64-byte signature: what any verifier needs before it looks. */
    static boolean wellFormed(byte[] publicKey32, byte[] message, byte[] signature64) {
        return publicKey32 != null
                && publicKey32.length == 32
                && message != null
                && signature64 != null
                && signature64.length == 64;
    }

    static boolean isValidSecretKey(byte[] secretKey32) {
        if (secretKey32 == null || secretKey32.length != 32) {
            return false;
        }
        BigInteger d = new BigInteger(1, secretKey32);
        return d.signum() > 0 && d.compareTo(DOMAIN.getN()) < 0;
    }

    private static BigInteger secretScalar(byte[] secretKey32) {
        requireLength(secretKey32, 32, "secret key");
        if (!isValidSecretKey(secretKey32)) {
            throw new IllegalArgumentException("secret key must be in the range 1..n-1");
        }
        return new BigInteger(1, secretKey32);
    }

    private static void requireLength(byte[] bytes, int length, String what) {
        if (bytes == null || bytes.length != length) {
            throw new IllegalArgumentException(what + " must be " + length + " bytes");
        }
    }

    private static final class FixedAuxRand extends SecureRandom {
        private static final long serialVersionUID = 1L;
        private final byte[] aux;

        FixedAuxRand(byte[] aux) {
            this.aux = aux.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            if (bytes.length != aux.length) {
                throw new IllegalStateException("BIP340Signer asked for " + bytes.length + " aux bytes, expected 32");
            }
            System.arraycopy(aux, 0, bytes, 0, aux.length);
        }
    }
}
