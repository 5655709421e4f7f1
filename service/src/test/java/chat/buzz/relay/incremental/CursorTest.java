package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A cursor is a value: two with the same contents are equal, whichever arrays hold their digests. */
class CursorTest {
    private static final UUID ARTIFACT = UUID.fromString("0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00");

    private static Cursor cursorFor(String readerPubkey) {
        return new Cursor(
                7,
                CursorCodec.readerDigest(readerPubkey),
                CursorCodec.scopeDigest(List.of(ARTIFACT.toString())),
                new PolicyStamp(1_795_000_000_123_456L, 1),
                Phase.DELTA,
                1_795_000_001_000_000L,
                1_794_999_881_000_000L,
                JudgedRows.firstPage(false, TxSnapshot.below(5_000_000_123L)),
                JudgedRows.firstPage(false, TxSnapshot.below(5_000_000_456L)),
                new Position(1_795_000_000_999_999L, 2, ARTIFACT));
    }

    @Test
    void cursorsWithEqualDigestsInDifferentArraysAreEqual() {
        Cursor first = cursorFor("ab".repeat(32));
        Cursor second = cursorFor("ab".repeat(32));

        assertThat(first.reader()).isNotSameAs(second.reader());
        assertThat(first).isEqualTo(second).hasSameHashCodeAs(second);
    }

    @Test
    void anotherReaderMakesAnotherCursor() {
        assertThat(cursorFor("ab".repeat(32))).isNotEqualTo(cursorFor("cd".repeat(32)));
    }

    @Test
    void aDecodedCursorEqualsTheOneEncoded() {
        CursorCodec codec = new CursorCodec(CursorCodec.deriveSecret(new byte[32]));
        Cursor cursor = cursorFor("ab".repeat(32));

        assertThat(codec.decode(codec.encode(cursor))).isEqualTo(cursor);
    }

    @Test
    void itsTextShowsTheDigestsRatherThanArrayIdentities() {
        assertThat(cursorFor("ab".repeat(32)).toString()).doesNotContain("[B@").contains("phase=DELTA");
    }
}
