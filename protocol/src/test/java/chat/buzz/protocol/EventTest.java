package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventTest {
    // Secret key 1: its x-only public key is the secp256k1 generator's x coordinate.
    private static final NostrKeys KEYS =
            NostrKeys.fromSecretHex("0000000000000000000000000000000000000000000000000000000000000001");
    private static final String G_X = "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798";

    private static String sha256Hex(String s) throws Exception {
        return HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void keyOneHasGeneratorAsPublicKey() {
        assertThat(KEYS.publicKeyHex()).isEqualTo(G_X);
    }

    @Test
    void idIsSha256OfTheLiteralPayload() throws Exception {
        String content = "line1\nquote\" back\\ cr\r tab\t bs\b ff\f nul\u0000 us\u001f del\u007f /slash héllo 🐝 日本語";
        Event e = KEYS.sign(1, 1700000000L, List.of(List.of("t", "buzz"), List.of("e", "x", "")), content);
        String literal = "[0,\"" + G_X + "\",1700000000,1,[[\"t\",\"buzz\"],[\"e\",\"x\",\"\"]],"
                + "\"line1\\nquote\\\" back\\\\ cr\\r tab\\t bs\\b ff\\f nul\\u0000 us\\u001f del\u007f /slash héllo 🐝 日本語\"]";
        assertThat(e.id()).isEqualTo(sha256Hex(literal));
        assertThat(e.computeId()).isEqualTo(e.id());
        assertThat(e.hasValidId()).isTrue();
        assertThat(e.hasValidSignature()).isTrue();
    }

    @Test
    void knownEventIdForFixedInput() throws Exception {
        // Fixed input so the id is a stable regression value; the literal is cross-checked below.
        Event e = KEYS.sign(1, 1, List.of(), "hello");
        String literal = "[0,\"" + G_X + "\",1,1,[],\"hello\"]";
        assertThat(e.id()).isEqualTo(sha256Hex(literal));
        Event fixedSig = new Event(
                e.id(),
                G_X,
                1,
                1,
                List.of(),
                "hello",
                Hex.encode(Bip340.sign(KEYS.secretKey(), Hex.decode(e.id(), 32), new byte[32])));
        fixedSig.verify();
        // Signing is deterministic for a given aux_rand.
        assertThat(Bip340.sign(KEYS.secretKey(), Hex.decode(e.id(), 32), new byte[32]))
                .isEqualTo(Hex.decode(fixedSig.sig(), 64));
    }

    @Test
    void toJsonRoundTripsAndUsesCanonicalEscaping() {
        Event e = KEYS.sign(30023, 42, List.of(List.of("d", "x/y"), List.of("alt")), "é\n\u2028</");
        String json = e.toJson();
        assertThat(json)
                .isEqualTo("{\"id\":\"" + e.id() + "\",\"pubkey\":\"" + G_X
                        + "\",\"created_at\":42,\"kind\":30023,\"tags\":[[\"d\",\"x/y\"],[\"alt\"]],"
                        + "\"content\":\"é\\n\u2028</\",\"sig\":\"" + e.sig() + "\"}");
        assertThat(Event.parse(json)).isEqualTo(e);
        Event.parse(json).verify();
    }

    @Test
    void verifyReportsIdThenSignature() {
        Event e = KEYS.sign(1, 10, List.of(), "x");
        Event tamperedContent = new Event(e.id(), e.pubkey(), 10, 1, List.of(), "y", e.sig());
        assertThatThrownBy(tamperedContent::verify)
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("id does not match");
        Event other = KEYS.sign(1, 11, List.of(), "x");
        Event wrongSig = new Event(e.id(), e.pubkey(), 10, 1, List.of(), "x", other.sig());
        assertThat(wrongSig.hasValidId()).isTrue();
        assertThatThrownBy(wrongSig::verify)
                .isInstanceOf(InvalidEventException.class)
                .hasMessage("bad signature");
        Event otherKey = NostrKeys.generate().sign(1, 10, List.of(), "x");
        Event wrongKey = new Event(otherKey.id(), G_X, 10, 1, List.of(), "x", otherKey.sig());
        assertThat(wrongKey.hasValidSignature()).isFalse();
    }

    @Test
    void signatureChecksNeverThrowOnGarbage() {
        Event e = new Event("zz", "ABC", 1, 1, List.of(), "", "not hex");
        assertThat(e.hasValidId()).isFalse();
        assertThat(e.hasValidSignature()).isFalse();
    }

    @Test
    void tagHelpers() {
        Event e = KEYS.sign(
                1,
                1,
                List.of(List.of("p", "a"), List.of("e"), List.of("p", "b", "relay"), List.of("e", "first-with-value")),
                "");
        assertThat(e.tag("p")).contains("a");
        assertThat(e.tag("e")).isEmpty();
        assertThat(e.tag("missing")).isEmpty();
        assertThat(e.tagValues("p")).containsExactly("a", "b");
        assertThat(e.tagValues("e")).containsExactly("first-with-value");
        assertThat(e.tagCount("e")).isEqualTo(2);
        assertThat(e.tagCount("p")).isEqualTo(2);
        assertThat(e.tagCount("x")).isZero();
    }

    @Test
    void tagsAreImmutableCopies() {
        List<String> inner = new java.util.ArrayList<>(List.of("t", "a"));
        List<List<String>> outer = new java.util.ArrayList<>(List.of(inner));
        Event e = new Event("a", "b", 1, 1, outer, "", "c");
        inner.set(1, "changed");
        outer.clear();
        assertThat(e.tags()).containsExactly(List.of("t", "a"));
        assertThatThrownBy(() -> e.tags().add(List.of("x"))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> e.tags().get(0).set(0, "x")).isInstanceOf(UnsupportedOperationException.class);
    }
}
