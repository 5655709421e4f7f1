package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HexTest {
    @Test
    void encodesLowercase() {
        assertThat(Hex.encode(new byte[] {0, 15, (byte) 0xab, (byte) 0xff})).isEqualTo("000fabff");
        assertThat(Hex.encode(new byte[0])).isEmpty();
    }

    @Test
    void decodesExactLengthLowercaseOnly() {
        assertThat(Hex.decode("000fabff", 4)).containsExactly(0, 15, 0xab, 0xff);
        assertThatThrownBy(() -> Hex.decode("000FABFF", 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lowercase hex");
        assertThatThrownBy(() -> Hex.decode("000fab", 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 8");
        assertThatThrownBy(() -> Hex.decode("000fabff00", 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Hex.decode("000fabfg", 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Hex.decode(" 00fabff", 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Hex.decode(null, 4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void isLowerHex() {
        assertThat(Hex.isLowerHex("0123456789abcdef", 8)).isTrue();
        assertThat(Hex.isLowerHex("0123456789ABCDEF", 8)).isFalse();
        assertThat(Hex.isLowerHex("0123456789abcdef", 7)).isFalse();
        assertThat(Hex.isLowerHex(null, 8)).isFalse();
        assertThat(Hex.isLowerHex("０１", 1)).isFalse();
    }

    @Test
    void sha256KnownAnswer() {
        assertThat(Sha256.hex("abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(Sha256.hex(new byte[0]))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }
}
