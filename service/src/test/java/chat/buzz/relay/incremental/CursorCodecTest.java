package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CursorCodecTest {
    private final CursorCodec codec = new CursorCodec(CursorCodec.deriveSecret(new byte[32]));
    private final Cursor cursor = new Cursor(
            7,
            CursorCodec.readerDigest("ab".repeat(32)),
            CursorCodec.scopeDigest(List.of("0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00")),
            new PolicyStamp(1_795_000_000_123_456L, -3_141_592_653_589L),
            Phase.DELTA,
            1_795_000_001_000_000L,
            1_794_999_881_000_000L,
            JudgedRows.firstPage(
                            true,
                            new TxSnapshot(5_000_000_123L, 5_000_000_130L, List.of(5_000_000_124L, 5_000_000_127L)))
                    .extendedBy(
                            new Position(1_794_999_900_000_000L, 0, UUID.randomUUID()),
                            TxSnapshot.below(5_000_000_140L)),
            JudgedRows.firstPage(false, TxSnapshot.below(5_000_000_456L))
                    .extendedBy(
                            new Position(1_795_000_000_500_000L, 2, UUID.randomUUID()),
                            new TxSnapshot(5_000_000_460L, 5_000_000_470L, List.of(5_000_000_465L))),
            new Position(1_795_000_000_999_999L, 2, UUID.randomUUID()));

    @Test
    void roundTrips() {
        Cursor decoded = codec.decode(codec.encode(cursor));
        assertThat(decoded.community()).isEqualTo(7);
        assertThat(decoded.reader()).isEqualTo(cursor.reader());
        assertThat(decoded.scope()).isEqualTo(cursor.scope());
        assertThat(decoded.policy()).isEqualTo(cursor.policy());
        assertThat(decoded.phase()).isEqualTo(Phase.DELTA);
        assertThat(decoded.sessionStart()).isEqualTo(cursor.sessionStart());
        assertThat(decoded.floor()).isEqualTo(cursor.floor());
        assertThat(decoded.prior()).isEqualTo(cursor.prior());
        assertThat(decoded.judged()).isEqualTo(cursor.judged());
        assertThat(decoded.position()).isEqualTo(cursor.position());
        assertThat(decoded).isEqualTo(cursor);
    }

    /** Version 2 kept one snapshot per session, its first page's: it reads as a single step. */
    @Test
    void readsVersionTwoCursors() throws Exception {
        TxSnapshot prior = new TxSnapshot(100, 105, List.of(101L, 103L));
        TxSnapshot session = TxSnapshot.below(200);
        ByteBuffer v2 = fixedPart((byte) 2, (17 + 16) + 17);
        v2.putLong(100).putLong(105).put((byte) 2).putLong(101).putLong(103);
        v2.putLong(200).putLong(200).put((byte) 0);

        Cursor decoded = codec.decode(signed(v2.array()));
        assertThat(decoded.prior()).isEqualTo(JudgedRows.firstPage(false, prior));
        assertThat(decoded.judged()).isEqualTo(JudgedRows.firstPage(false, session));
        assertThat(decoded.policy()).isEqualTo(cursor.policy());
        assertThat(decoded.floor()).isEqualTo(cursor.floor());
        assertThat(decoded.position()).isEqualTo(cursor.position());
    }

    @Test
    void moreStepsThanACursorHoldsAreRefused() throws Exception {
        ByteBuffer body = fixedPart((byte) 3, 2 + 2);
        body.put((byte) 0).put((byte) (JudgedRows.MAX_STEPS + 1)).put((byte) 0).put((byte) 0);
        assertInvalid(signed(body.array()));
        byte[] fields = java.util.Arrays.copyOfRange(body.array(), 1, body.capacity());
        assertInvalid(codec.seal(CursorCodec.VERSION, fields));
        assertInvalid(codec.seal((byte) 4, java.util.Arrays.copyOf(fields, CursorLayout.MAX_BYTES)));
    }

    /** A cursor issued before cursors were sealed is read as it was: an upgrade sends nobody back to the start. */
    @Test
    void readsVersionThreeCursors() throws Exception {
        ByteBuffer v3 = ByteBuffer.allocate(1 + CursorLayout.size(cursor, CursorLayout.Snapshots.LISTED));
        v3.put((byte) 3);
        CursorLayout.write(v3, cursor, CursorLayout.Snapshots.LISTED);
        assertThat(codec.decode(signed(v3.array()))).isEqualTo(cursor);
    }

    /** Version 4 sealed listed snapshots padded with zeros to the largest cursor: still read after an upgrade. */
    @Test
    void readsVersionFourCursors() {
        ByteBuffer fields = ByteBuffer.allocate(CursorLayout.MAX_BYTES);
        CursorLayout.write(fields, cursor, CursorLayout.Snapshots.LISTED);
        assertThat(codec.decode(codec.seal((byte) 4, fields.array()))).isEqualTo(cursor);
        fields.put(CursorLayout.MAX_BYTES - 1, (byte) 1);
        assertInvalid(codec.seal((byte) 4, fields.array()));
    }

    /** A slot a snapshot does not use must be empty, as the relay writes it. */
    @Test
    void aFilledUnusedSlotIsRefused() {
        ByteBuffer fields = ByteBuffer.allocate(CursorLayout.size(cursor, CursorLayout.Snapshots.SLOTTED));
        CursorLayout.write(fields, cursor, CursorLayout.Snapshots.SLOTTED);
        assertThat(codec.decode(codec.seal((byte) 5, fields.array()))).isEqualTo(cursor);
        fields.put(fields.capacity() - 1, (byte) 1);
        assertInvalid(codec.seal((byte) 5, fields.array()));
    }

    /** Version 6 adds when each judged list's last step was taken; a version 5 cursor is read as knowing neither. */
    @Test
    void versionSixCarriesWhenTheStepsWereTakenAndVersionFiveIsStillRead() {
        Cursor timed = new Cursor(
                cursor.community(),
                cursor.reader(),
                cursor.scope(),
                cursor.policy(),
                cursor.phase(),
                cursor.sessionStart(),
                cursor.floor(),
                cursor.prior().withLastStepAt(4_242_424_242L),
                cursor.judged().withLastStepAt(4_343_434_343L),
                cursor.position());
        Cursor decoded = codec.decode(codec.encode(timed));
        assertThat(decoded).isEqualTo(timed);
        assertThat(decoded.prior().lastStepAt()).isEqualTo(4_242_424_242L);
        assertThat(decoded.judged().lastStepAt()).isEqualTo(4_343_434_343L);
        ByteBuffer v5 = ByteBuffer.allocate(CursorLayout.size(timed, CursorLayout.Snapshots.SLOTTED));
        CursorLayout.write(v5, timed, CursorLayout.Snapshots.SLOTTED);
        Cursor old = codec.decode(codec.seal((byte) 5, v5.array()));
        assertThat(old.prior().lastStepAt()).isZero();
        assertThat(old.judged().lastStepAt()).isZero();
        assertInvalid(codec.seal(CursorCodec.VERSION, v5.array()));
    }

    /**
     * Version 7 adds the WAL position the last page reflected, so the next page runs on a node that has
     * replayed as much; a version 6 cursor is read as one any node may follow.
     */
    @Test
    void versionSevenCarriesTheReplayPositionAndVersionSixIsStillRead() {
        Cursor placed = new Cursor(
                cursor.community(),
                cursor.reader(),
                cursor.scope(),
                cursor.policy(),
                cursor.phase(),
                cursor.sessionStart(),
                cursor.floor(),
                cursor.prior().withLastStepAt(4_242_424_242L),
                cursor.judged().withLastStepAt(4_343_434_343L),
                cursor.position(),
                0x1_6B37_4D48L);
        Cursor decoded = codec.decode(codec.encode(placed));
        assertThat(decoded).isEqualTo(placed);
        assertThat(decoded.replayPosition()).isEqualTo(0x1_6B37_4D48L);
        ByteBuffer v6 = ByteBuffer.allocate(
                CursorLayout.size(placed, CursorLayout.Snapshots.SLOTTED) + CursorLayout.STEP_TIMES_BYTES);
        CursorLayout.write(v6, placed, CursorLayout.Snapshots.SLOTTED);
        v6.putLong(placed.prior().lastStepAt()).putLong(placed.judged().lastStepAt());
        Cursor old = codec.decode(codec.seal((byte) 6, v6.array()));
        assertThat(old.replayPosition()).isZero();
        assertThat(old.judged().lastStepAt()).isEqualTo(4_343_434_343L);
        assertInvalid(codec.seal(CursorCodec.VERSION, v6.array()));
    }

    /** Nothing of the cursor shows through: not its ids, not its numbers, and no two seals look alike. */
    @Test
    void aSealedCursorShowsNoneOfItsFields() {
        byte[] sealed = Base64.getUrlDecoder().decode(codec.encode(cursor));
        String hex = java.util.HexFormat.of().formatHex(sealed);
        for (UUID d : List.of(
                cursor.position().d(), cursor.prior().steps().get(1).after().d())) {
            assertThat(hex).doesNotContain(d.toString().replace("-", "").substring(0, 16));
        }
        ByteBuffer fields = ByteBuffer.allocate(CursorLayout.size(cursor, CursorLayout.Snapshots.SLOTTED));
        CursorLayout.write(fields, cursor, CursorLayout.Snapshots.SLOTTED);
        assertThat(hex).doesNotContain(java.util.HexFormat.of().formatHex(fields.array(), 1, 9));
        assertThat(codec.encode(cursor)).isNotEqualTo(codec.encode(cursor));
    }

    /**
     * A cursor's length follows from its steps alone, never from how many transactions were in progress
     * (which would show how busy other tenants are); a cursor of one step per session takes 1,002
     * characters, and the largest still opens.
     */
    @Test
    void aCursorsLengthSaysHowManyStepsItHoldsAndNothingMore() {
        TxSnapshot idle = TxSnapshot.below(9_000);
        Cursor quiet = withJudged(JudgedRows.firstPage(false, idle), JudgedRows.firstPage(false, idle));
        Cursor busy =
                withJudged(JudgedRows.firstPage(false, busySnapshot(0)), JudgedRows.firstPage(false, busySnapshot(1)));
        assertThat(codec.encode(busy)).hasSameSizeAs(codec.encode(quiet)).hasSize(1_002);
        assertThat(Base64.getUrlDecoder().decode(codec.encode(quiet))).hasSize(CursorCodec.issuedBytes(2));
        assertThat(codec.decode(codec.encode(busy))).isEqualTo(busy);

        JudgedRows full = JudgedRows.firstPage(true, busySnapshot(0));
        for (int i = 1; i < JudgedRows.MAX_STEPS; i++) {
            full = full.extendedBy(new Position(i, 0, UUID.randomUUID()), busySnapshot(i));
        }
        Cursor largest = withJudged(full, full);
        assertThat(CursorLayout.size(largest, CursorLayout.Snapshots.SLOTTED)).isEqualTo(CursorLayout.MAX_BYTES);
        assertThat(codec.decode(codec.encode(largest))).isEqualTo(largest);
        Cursor bare = withJudged(JudgedRows.NONE, JudgedRows.NONE);
        assertThat(codec.decode(codec.encode(bare))).isEqualTo(bare);
    }

    private Cursor withJudged(JudgedRows prior, JudgedRows judged) {
        return new Cursor(
                7,
                cursor.reader(),
                cursor.scope(),
                cursor.policy(),
                Phase.DELTA,
                1,
                2,
                prior,
                judged,
                cursor.position());
    }

    /** After a rotation the previous secret still opens its cursors; once dropped, they are refused. */
    @Test
    void aPreviousSecretStillOpensTheCursorsItSealed() {
        byte[] oldSecret = CursorCodec.deriveSecret(new byte[32]);
        byte[] newSecret = "the secret after the rotation".getBytes(StandardCharsets.UTF_8);
        String sealedBefore = codec.encode(cursor);
        CursorCodec rotated = new CursorCodec(newSecret, oldSecret);
        assertThat(rotated.decode(sealedBefore)).isEqualTo(cursor);
        String sealedAfter = rotated.encode(cursor);
        assertThat(new CursorCodec(newSecret).decode(sealedAfter)).isEqualTo(cursor);
        assertInvalid(codec, sealedAfter);
        assertInvalid(new CursorCodec(newSecret), sealedBefore);
    }

    private static TxSnapshot busySnapshot(long base) {
        return new TxSnapshot(
                1000 * base + 1,
                1000 * base + 100,
                java.util.stream.LongStream.range(0, TxSnapshot.MAX_IN_PROGRESS)
                        .map(i -> 1000 * base + 2 + i)
                        .boxed()
                        .toList());
    }

    /**
     * Cursors issued before floor, snapshots and epochs existed stay valid across an upgrade: their floor
     * is their policy stamp, their epoch the first, and with no snapshot the next session sends its
     * whole overlap.
     */
    @Test
    void readsVersionOneCursors() throws Exception {
        ByteBuffer v1 = ByteBuffer.allocate(1 + 1 + 8 + 16 + 16 + 8 + 8 + 8 + 1 + 16);
        v1.put((byte) 1)
                .put((byte) Phase.FINISHED.ordinal())
                .putLong(7)
                .put(cursor.reader())
                .put(cursor.scope())
                .putLong(cursor.policy().micros())
                .putLong(cursor.sessionStart())
                .putLong(cursor.position().micros())
                .put((byte) cursor.position().source())
                .putLong(cursor.position().d().getMostSignificantBits())
                .putLong(cursor.position().d().getLeastSignificantBits());

        Cursor decoded = codec.decode(signed(v1.array()));
        assertThat(decoded.phase()).isEqualTo(Phase.FINISHED);
        assertThat(decoded.policy()).isEqualTo(new PolicyStamp(cursor.policy().micros(), PolicyStamp.FIRST_EPOCH));
        assertThat(decoded.floor()).isEqualTo(cursor.policy().micros());
        assertThat(decoded.prior()).isEqualTo(JudgedRows.NONE);
        assertThat(decoded.judged()).isEqualTo(JudgedRows.NONE);
        assertThat(decoded.position()).isEqualTo(cursor.position());
        assertThat(decoded.sessionStart()).isEqualTo(cursor.sessionStart());
    }

    /** A busy snapshot keeps only its xmin, so a cursor stays small: everything above it counts as unseen. */
    @Test
    void aSnapshotWithManyTransactionsInProgressKeepsOnlyItsXmin() {
        String busy = "100:200:"
                + java.util.stream.LongStream.range(101, 101 + TxSnapshot.MAX_IN_PROGRESS + 1)
                        .mapToObj(Long::toString)
                        .collect(java.util.stream.Collectors.joining(","));
        assertThat(TxSnapshot.parse(busy)).isEqualTo(TxSnapshot.below(100));
        assertThat(TxSnapshot.parse("100:105:101,103")).isEqualTo(new TxSnapshot(100, 105, List.of(101L, 103L)));
        assertThat(TxSnapshot.parse("100:105:101,103").text()).isEqualTo("100:105:101,103");
        assertThat(TxSnapshot.NONE.text()).isEmpty();
    }

    /** The fields versions 2 and 3 share, from this test's cursor, with room for {@code rest} more bytes. */
    private ByteBuffer fixedPart(byte version, int rest) {
        ByteBuffer body = ByteBuffer.allocate(1 + 1 + 8 + 16 + 16 + 8 + 8 + 8 + 8 + 8 + 1 + 16 + rest);
        return body.put(version)
                .put((byte) Phase.FINISHED.ordinal())
                .putLong(7)
                .put(cursor.reader())
                .put(cursor.scope())
                .putLong(cursor.policy().micros())
                .putLong(cursor.policy().epoch())
                .putLong(cursor.sessionStart())
                .putLong(cursor.floor())
                .putLong(cursor.position().micros())
                .put((byte) cursor.position().source())
                .putLong(cursor.position().d().getMostSignificantBits())
                .putLong(cursor.position().d().getLeastSignificantBits());
    }

    private static String signed(byte[] body) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(CursorCodec.deriveSecret(new byte[32]), "HmacSHA256"));
        byte[] withMac = java.util.Arrays.copyOf(body, body.length + 32);
        System.arraycopy(mac.doFinal(body), 0, withMac, body.length, 32);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(withMac);
    }

    @Test
    void everyAlteredByteIsRefused() {
        byte[] bytes = Base64.getUrlDecoder().decode(codec.encode(cursor));
        for (int i = 0; i < bytes.length; i++) {
            byte[] altered = bytes.clone();
            altered[i] ^= 0x01;
            String text = Base64.getUrlEncoder().withoutPadding().encodeToString(altered);
            assertThatThrownBy(() -> codec.decode(text))
                    .isInstanceOf(IncrementalError.class)
                    .extracting(e -> ((IncrementalError) e).code())
                    .isEqualTo("incremental_invalid_cursor");
        }
    }

    @Test
    void aCursorSignedWithAnotherSecretIsRefused() {
        CursorCodec other = new CursorCodec("another deployment's secret".getBytes(StandardCharsets.UTF_8));
        assertInvalid(other.encode(cursor));
    }

    @Test
    void scopeDigestsDependOnTheScope() {
        assertThat(CursorCodec.scopeDigest(List.of())).isNotEqualTo(CursorCodec.scopeDigest(List.of("a")));
        assertThat(CursorCodec.readerDigest("a")).isNotEqualTo(CursorCodec.readerDigest("b"));
    }

    @Test
    void aTruncatedCursorIsRefused() {
        byte[] bytes = Base64.getUrlDecoder().decode(codec.encode(cursor));
        for (int length : new int[] {0, 1, bytes.length / 2, bytes.length - 32, bytes.length - 1}) {
            assertInvalid(
                    Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(bytes, length)));
        }
    }

    @Test
    void textThatIsNotBase64UrlIsRefused() {
        assertInvalid("not a cursor!");
        assertInvalid(codec.encode(cursor).replace('-', '+').replace('_', '/') + "==*");
    }

    /** A version byte the codec does not know is refused even with a valid MAC, and so is a version 3 mark on a version 1 body. */
    @Test
    void unknownVersionsAndMismatchedLayoutsAreRefused() throws Exception {
        byte[] issued = Base64.getUrlDecoder().decode(codec.encode(cursor));
        byte[] body = java.util.Arrays.copyOf(issued, issued.length - 32);
        body[0] = 4;
        assertInvalid(signed(body));
        byte[] v1Sized = new byte[1 + 1 + 8 + 16 + 16 + 8 + 8 + 8 + 1 + 16];
        v1Sized[0] = CursorCodec.VERSION;
        assertInvalid(signed(v1Sized));
    }

    @Test
    void trailingBytesUnderAValidMacAreRefused() throws Exception {
        byte[] issued = Base64.getUrlDecoder().decode(codec.encode(cursor));
        byte[] body = java.util.Arrays.copyOf(issued, issued.length - 32 + 1);
        assertInvalid(signed(body));
    }

    private void assertInvalid(String text) {
        assertInvalid(codec, text);
    }

    private static void assertInvalid(CursorCodec codec, String text) {
        assertThatThrownBy(() -> codec.decode(text))
                .as(text)
                .isInstanceOf(IncrementalError.class)
                .extracting(e -> ((IncrementalError) e).code())
                .isEqualTo("incremental_invalid_cursor");
    }
}
