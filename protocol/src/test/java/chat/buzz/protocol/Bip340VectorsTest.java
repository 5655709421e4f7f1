package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every row of the official BIP-340 vectors.
 *
 * <p>{@code bip340-test-vectors.csv} is bitcoin/bips {@code bip-0340/test-vectors.csv}
 * byte for byte (rows 0-14, 32-byte messages). Upstream later appended rows 15-18 with
 * 0-, 1-, 17- and 100-byte messages; those rows, verbatim, are in
 * {@code bip340-test-vectors-2022-12-rows.csv}. Rows whose message is not 32 bytes go
 * through the package-private any-length path, because the public API deliberately only
 * accepts 32-byte Nostr ids; for them we also assert that the public API refuses them.
 */
class Bip340VectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    // Test parameters, never compared or hashed.
    @SuppressWarnings("ArrayRecordComponent")
    record Vector(
            String index,
            byte[] secretKey,
            byte[] publicKey,
            byte[] auxRand,
            byte[] message,
            byte[] signature,
            boolean expected,
            String comment) {
        @Override
        public String toString() {
            return "#" + index + (comment.isEmpty() ? "" : " " + comment);
        }
    }

    static Stream<Arguments> vectors() throws IOException {
        return allRows().map(Arguments::of);
    }

    private static Stream<Vector> allRows() throws IOException {
        return Stream.concat(
                load("/bip340-test-vectors.csv").stream(), load("/bip340-test-vectors-2022-12-rows.csv").stream());
    }

    static List<Vector> load(String resource) throws IOException {
        try (InputStream in = Bip340VectorsTest.class.getResourceAsStream(resource)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.lines()
                    .skip(1)
                    .map(String::strip)
                    .filter(line -> !line.isEmpty())
                    .map(Bip340VectorsTest::row)
                    .toList();
        }
    }

    private static Vector row(String line) {
        String[] f = line.split(",", 8);
        return new Vector(
                f[0],
                bytes(f[1]),
                bytes(f[2]),
                bytes(f[3]),
                bytes(f[4]),
                bytes(f[5]),
                switch (f[6]) {
                    case "TRUE" -> true;
                    case "FALSE" -> false;
                    default -> throw new IllegalArgumentException("bad verification result " + f[6]);
                },
                f.length > 7 ? f[7] : "");
    }

    private static byte[] bytes(String hex) {
        return HEX.parseHex(hex.toLowerCase(Locale.ROOT));
    }

    @Test
    void csvHoldsEveryOfficialRow() throws IOException {
        List<Vector> rows = load("/bip340-test-vectors.csv");
        assertThat(rows).hasSize(15);
        assertThat(rows)
                .extracting(Vector::index)
                .containsExactly("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14");
        assertThat(load("/bip340-test-vectors-2022-12-rows.csv"))
                .extracting(v -> v.index() + ":" + v.message().length)
                .containsExactly("15:0", "16:1", "17:17", "18:100");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void vector(Vector v) {
        boolean nostrSized = v.message().length == 32;
        if (v.secretKey().length > 0) {
            assertThat(Bip340.publicKey(v.secretKey())).isEqualTo(v.publicKey());
            byte[] sig = nostrSized
                    ? Bip340.sign(v.secretKey(), v.message(), v.auxRand())
                    : Bip340.signAnyLength(v.secretKey(), v.message(), v.auxRand());
            assertThat(sig).isEqualTo(v.signature());
        }
        if (nostrSized) {
            assertThat(Bip340.verify(v.publicKey(), v.message(), v.signature())).isEqualTo(v.expected());
        } else {
            assertThat(Bip340.verifyAnyLength(v.publicKey(), v.message(), v.signature()))
                    .isEqualTo(v.expected());
            assertThat(Bip340.verify(v.publicKey(), v.message(), v.signature())).isFalse();
            if (v.secretKey().length > 0) {
                assertThatThrownBy(() -> Bip340.sign(v.secretKey(), v.message(), v.auxRand()))
                        .isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    static Stream<Arguments> verifiersAndVectors() throws IOException {
        List<SchnorrVerifier> verifiers = List.of(SchnorrVerifiers.bouncyCastle(), SchnorrVerifiers.nativeLibrary());
        return allRows().flatMap(vector -> verifiers.stream().map(verifier -> Arguments.of(verifier.name(), vector)));
    }

    /**
     * Both paths, whichever this process chose, answer every row. The native path hands the rows whose
     * message is not 32 bytes to BouncyCastle (its binding takes 32 bytes only), so for those the
     * native rows check that hand-over.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("verifiersAndVectors")
    void eachVerifierAnswersTheVector(String verifier, Vector v) {
        SchnorrVerifier chosen = verifier.equals(SchnorrVerifiers.bouncyCastle().name())
                ? SchnorrVerifiers.bouncyCastle()
                : SchnorrVerifiers.nativeLibrary();
        assertThat(chosen.verify(v.publicKey(), v.message(), v.signature())).isEqualTo(v.expected());
    }
}
