package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class SchnorrVerifiersTest {
    private static final SchnorrVerifier NATIVE = SchnorrVerifiers.nativeLibrary();
    private static final SchnorrVerifier JAVA = SchnorrVerifiers.bouncyCastle();

    @Test
    void theNativeLibraryLoadsHere() {
        assertThat(NATIVE.name()).isEqualTo("libsecp256k1");
    }

    @Test
    void bouncyCastleCanBeForced() {
        assertThat(SchnorrVerifiers.choose("bouncycastle").verifier().name()).isEqualTo("BouncyCastle");
        assertThat(SchnorrVerifiers.choose(" BouncyCastle ").verifier().name()).isEqualTo("BouncyCastle");
    }

    @Test
    void otherwiseTheNativeLibraryIsChosen() {
        assertThat(SchnorrVerifiers.choose(null).verifier().name()).isEqualTo("libsecp256k1");
        assertThat(SchnorrVerifiers.choose("").verifier().name()).isEqualTo("libsecp256k1");
    }

    /** CI runs the protocol tests a second time with BUZZ_BIP340=bouncycastle; this is the one that notices. */
    @Test
    void theProcessUsesWhatItsEnvironmentAsksFor() {
        String expected = SchnorrVerifiers.BOUNCY_CASTLE.equalsIgnoreCase(
                        String.valueOf(SchnorrVerifiers.forced()).strip())
                ? "BouncyCastle"
                : "libsecp256k1";
        assertThat(SchnorrVerifiers.chosen().name()).isEqualTo(expected);
        assertThat(SchnorrVerifiers.chosen()).isSameAs(SchnorrVerifiers.chosen());
    }

    @Test
    void malformedInputIsNoSignatureOnEitherPath() {
        byte[] key = new byte[32];
        byte[] message = new byte[32];
        byte[] signature = new byte[64];
        for (SchnorrVerifier verifier : new SchnorrVerifier[] {NATIVE, JAVA}) {
            assertThat(verifier.verify(null, message, signature)).isFalse();
            assertThat(verifier.verify(key, null, signature)).isFalse();
            assertThat(verifier.verify(key, message, null)).isFalse();
            assertThat(verifier.verify(new byte[31], message, signature)).isFalse();
            assertThat(verifier.verify(key, message, new byte[63])).isFalse();
            assertThat(verifier.verify(key, message, signature)).isFalse();
        }
    }

    /** Signed by BouncyCastle, then one bit of key, message or signature flipped: both paths agree. */
    @Property(tries = 300, seed = "20261201")
    void bothPathsAgreeOnSignaturesAndTheirForgeries(
            @ForAll @Size(32) byte[] secretSeed, @ForAll @Size(32) byte[] message, @ForAll long flipSeed) {
        byte[] secretKey = Sha256.digest(secretSeed);
        if (!Bip340.isValidSecretKey(secretKey)) {
            return;
        }
        byte[] publicKey = Bip340.publicKey(secretKey);
        byte[] signature = Bip340.sign(secretKey, message);
        assertThat(NATIVE.verify(publicKey, message, signature)).isTrue();
        assertThat(JAVA.verify(publicKey, message, signature)).isTrue();

        Random random = new Random(flipSeed);
        byte[][] parts = {publicKey.clone(), message.clone(), signature.clone()};
        byte[] part = parts[random.nextInt(parts.length)];
        part[random.nextInt(part.length)] ^= (byte) (1 << random.nextInt(8));
        boolean java = JAVA.verify(parts[0], parts[1], parts[2]);
        assertThat(NATIVE.verify(parts[0], parts[1], parts[2])).isEqualTo(java);
        assertThat(java).isFalse();
    }
}
