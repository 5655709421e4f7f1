package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class NostrKeysTest {
    private static final String SECRET = "b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef";

    @Test
    void derivesKnownPublicKey() {
        // BIP-340 vector 1's key pair.
        assertThat(NostrKeys.fromSecretHex(SECRET).publicKeyHex())
                .isEqualTo("dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659");
    }

    @Test
    void toStringDoesNotRevealTheSecret() {
        NostrKeys keys = NostrKeys.fromSecretHex(SECRET);
        assertThat(keys.toString())
                .doesNotContain(SECRET)
                .doesNotContain(SECRET.substring(0, 16))
                .contains(keys.publicKeyHex());
    }

    @Test
    void secretKeyIsADefensiveCopy() {
        NostrKeys keys = NostrKeys.fromSecretHex(SECRET);
        keys.secretKey()[0] = 0;
        assertThat(Hex.encode(keys.secretKey())).isEqualTo(SECRET);
    }

    @Test
    void rejectsBadSecrets() {
        assertThatThrownBy(() -> NostrKeys.fromSecretHex(SECRET.toUpperCase()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NostrKeys.fromSecretHex(SECRET.substring(2)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NostrKeys.fromSecretHex("0".repeat(64)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range");
        assertThatThrownBy(() ->
                        NostrKeys.fromSecretHex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range");
        assertThat(NostrKeys.fromSecretHex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140")
                        .publicKeyHex())
                .hasSize(64);
    }

    @Test
    void generatedKeysSignVerifiableEvents() {
        NostrKeys a = NostrKeys.generate();
        NostrKeys b = NostrKeys.generate();
        assertThat(a.publicKeyHex()).isNotEqualTo(b.publicKeyHex());
        Event e = a.sign(1, 123, List.of(List.of("t", "x")), "hi");
        e.verify();
        assertThat(e.pubkey()).isEqualTo(a.publicKeyHex());
        assertThat(NostrKeys.fromSecretHex(Hex.encode(a.secretKey())).publicKeyHex())
                .isEqualTo(a.publicKeyHex());
    }

    @Test
    void reproducibleSignaturesAreValidAndRepeat() {
        NostrKeys keys = NostrKeys.generate();
        List<List<String>> tags = List.of(List.of("d", "x"));
        Event first = keys.signReproducibly(39000, 123, tags, "");
        first.verify();
        assertThat(keys.signReproducibly(39000, 123, tags, "")).isEqualTo(first);
        assertThat(keys.sign(39000, 123, tags, "").sig())
                .as("ordinary signatures use fresh randomness")
                .isNotEqualTo(first.sig());
    }
}
