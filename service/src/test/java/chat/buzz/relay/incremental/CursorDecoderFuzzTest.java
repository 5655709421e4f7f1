package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Seeded fuzzing of the cursor decoder: any text that is not a cursor this relay issued, unaltered,
 * is refused with incremental_invalid_cursor (a 400); nothing else escapes.
 */
class CursorDecoderFuzzTest {
    private static final CursorCodec CODEC = new CursorCodec(CursorCodec.deriveSecret(new byte[32]));
    private static final String ISSUED = CODEC.encode(new Cursor(
            7,
            CursorCodec.readerDigest("ab".repeat(32)),
            CursorCodec.scopeDigest(List.of()),
            new PolicyStamp(1_795_000_000_123_456L, 42),
            Phase.FINISHED,
            1_795_000_001_000_000L,
            1_794_999_881_000_000L,
            JudgedRows.firstPage(false, TxSnapshot.below(5_000_000_123L)),
            JudgedRows.firstPage(true, new TxSnapshot(5_000_000_456L, 5_000_000_460L, List.of(5_000_000_457L)))
                    .extendedBy(
                            new Position(1_795_000_000_000_001L, 0, new UUID(1, 2)), TxSnapshot.below(5_000_000_470L)),
            new Position(1_795_000_000_999_999L, 0, UUID.randomUUID())));

    @Property(tries = 4000, seed = "20261213")
    void anyTextIsRefusedAsAnInvalidCursor(@ForAll("texts") String text) {
        assertInvalid(text);
    }

    @Property(tries = 4000, seed = "20261214")
    void anyAlterationOfAnIssuedCursorIsRefused(@ForAll("alteredCursors") String text) {
        assertInvalid(text);
    }

    @Example
    void theIssuedCursorDecodes() {
        assertThat(CODEC.decode(ISSUED).policy()).isEqualTo(new PolicyStamp(1_795_000_000_123_456L, 42));
    }

    private static void assertInvalid(String text) {
        assertThatThrownBy(() -> CODEC.decode(text)).isInstanceOfSatisfying(IncrementalError.class, error -> {
            assertThat(error.code()).isEqualTo("incremental_invalid_cursor");
            assertThat(error.response().getStatus()).isEqualTo(400);
        });
    }

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> base64 = Arbitraries.bytes()
                .array(byte[].class)
                .ofMaxSize(260)
                .map(bytes -> Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
        // Bodies that start with a known version byte and have exactly a known length reach the MAC or tag check.
        Arbitrary<String> versioned = Combinators.combine(
                        Arbitraries.of((byte) 1, (byte) 2, (byte) 3, (byte) 4, (byte) 5, CursorCodec.VERSION),
                        Arbitraries.of(
                                115,
                                165,
                                173,
                                181,
                                CursorCodec.slottedBytes(0),
                                CursorCodec.slottedBytes(2),
                                CursorCodec.issuedBytes(0),
                                CursorCodec.issuedBytes(2),
                                CursorCodec.PADDED_BYTES),
                        Arbitraries.bytes().array(byte[].class).ofSize(CursorCodec.PADDED_BYTES))
                .as((version, length, noise) -> {
                    byte[] bytes = java.util.Arrays.copyOf(noise, length);
                    bytes[0] = version;
                    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
                });
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(300), base64, versioned);
    }

    @Provide
    Arbitrary<String> alteredCursors() {
        byte[] issued = Base64.getUrlDecoder().decode(ISSUED);
        Arbitrary<Integer> at = Arbitraries.integers().between(0, issued.length - 1);
        Arbitrary<String> flipped = Combinators.combine(
                        at, Arbitraries.integers().between(1, 255))
                .as((i, mask) -> {
                    byte[] copy = issued.clone();
                    copy[i] ^= mask.byteValue();
                    return Base64.getUrlEncoder().withoutPadding().encodeToString(copy);
                });
        Arbitrary<String> truncated =
                Arbitraries.integers().between(0, ISSUED.length() - 1).map(i -> ISSUED.substring(0, i));
        Arbitrary<String> extended = Arbitraries.strings()
                .withCharRange('A', 'z')
                .ofMinLength(1)
                .ofMaxLength(12)
                .map(tail -> ISSUED + tail);
        return Arbitraries.oneOf(flipped, truncated, extended);
    }
}
