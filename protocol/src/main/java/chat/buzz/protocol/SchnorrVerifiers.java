package chat.buzz.protocol;

import java.util.Locale;

/**
 * Which BIP-340 verifier this process uses, chosen once on first use: libsecp256k1 where its native
 * library loads (several times faster, and signature checks were the largest part of a write),
 * BouncyCastle otherwise or when forced with the system property {@value #FORCE_PROPERTY} or the
 * environment variable {@value #FORCE_ENV} set to {@value #BOUNCY_CASTLE}. Signing stays with
 * BouncyCastle: the relay signs a few events of its own, the check runs on every write.
 */
public final class SchnorrVerifiers {
    public static final String FORCE_PROPERTY = "buzz.bip340";
    public static final String FORCE_ENV = "BUZZ_BIP340";
    public static final String BOUNCY_CASTLE = "bouncycastle";

    private SchnorrVerifiers() {}

    /** The verifier of this process. */
    public static SchnorrVerifier chosen() {
        return Chosen.CHOICE.verifier();
    }

    /** What {@link #chosen()} is and why, for the one log line a process writes about it. */
    public static String choice() {
        return Chosen.CHOICE.why();
    }

    public static SchnorrVerifier bouncyCastle() {
        return BouncyCastleSchnorr.INSTANCE;
    }

    /** @throws IllegalStateException when the native library does not load here, with the reason */
    public static SchnorrVerifier nativeLibrary() {
        return NativeSchnorr.load();
    }

    record Choice(SchnorrVerifier verifier, String why) {}

    /** @param forced the property's or variable's value, null when neither is set */
    static Choice choose(String forced) {
        if (forced != null && BOUNCY_CASTLE.equals(forced.strip().toLowerCase(Locale.ROOT))) {
            return new Choice(bouncyCastle(), "BouncyCastle (forced by " + FORCE_PROPERTY + " or " + FORCE_ENV + ")");
        }
        try {
            return new Choice(nativeLibrary(), "libsecp256k1 (native)");
        } catch (IllegalStateException e) {
            return new Choice(bouncyCastle(), "BouncyCastle, since " + e.getMessage());
        }
    }

    static String forced() {
        String property = System.getProperty(FORCE_PROPERTY);
        return property != null ? property : System.getenv(FORCE_ENV);
    }

    /** Chosen on first use, once for the process. */
    private static final class Chosen {
        static final Choice CHOICE = choose(forced());
    }
}
