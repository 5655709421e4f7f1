package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class Bip340Test {
    private static final byte[] SECRET =
            HexFormat.of().parseHex("b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef");
    private static final byte[] MESSAGE = new byte[32];

    @Test
    void signatureRoundTripsWithRandomAux() {
        byte[] pub = Bip340.publicKey(SECRET);
        byte[] sig = Bip340.sign(SECRET, MESSAGE);
        assertThat(sig).hasSize(64);
        assertThat(Bip340.verify(pub, MESSAGE, sig)).isTrue();
        byte[] other = MESSAGE.clone();
        other[0] = 1;
        assertThat(Bip340.verify(pub, other, sig)).isFalse();
    }

    @Test
    void verifyReturnsFalseForWrongLengthsAndNulls() {
        byte[] pub = Bip340.publicKey(SECRET);
        byte[] sig = Bip340.sign(SECRET, MESSAGE);
        assertThat(Bip340.verify(pub, MESSAGE, sig)).isTrue();
        assertThat(Bip340.verify(new byte[31], MESSAGE, sig)).isFalse();
        assertThat(Bip340.verify(new byte[33], MESSAGE, sig)).isFalse();
        assertThat(Bip340.verify(pub, new byte[31], sig)).isFalse();
        assertThat(Bip340.verify(pub, new byte[33], sig)).isFalse();
        assertThat(Bip340.verify(pub, MESSAGE, new byte[63])).isFalse();
        assertThat(Bip340.verify(pub, MESSAGE, new byte[65])).isFalse();
        assertThat(Bip340.verify(null, MESSAGE, sig)).isFalse();
        assertThat(Bip340.verify(pub, null, sig)).isFalse();
        assertThat(Bip340.verify(pub, MESSAGE, null)).isFalse();
    }

    @Test
    void verifyReturnsFalseForKeyThatIsNotOnTheCurve() {
        // x = 5 has no point on secp256k1 (5^3 + 7 = 132 is not a square mod p).
        byte[] notOnCurve = new byte[32];
        notOnCurve[31] = 5;
        assertThat(Bip340.verify(notOnCurve, MESSAGE, Bip340.sign(SECRET, MESSAGE)))
                .isFalse();
        assertThat(Bip340.verify(new byte[32], MESSAGE, Bip340.sign(SECRET, MESSAGE)))
                .isFalse();
    }

    @Test
    void signRejectsBadLengthsAndOutOfRangeKeys() {
        assertThatThrownBy(() -> Bip340.sign(new byte[31], MESSAGE, new byte[32]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Bip340.sign(SECRET, new byte[31], new byte[32]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Bip340.sign(SECRET, MESSAGE, new byte[31]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Bip340.publicKey(new byte[32]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range");
        byte[] n = HexFormat.of().parseHex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
        assertThatThrownBy(() -> Bip340.publicKey(n)).isInstanceOf(IllegalArgumentException.class);
    }
}
