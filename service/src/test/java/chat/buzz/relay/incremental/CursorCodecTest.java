package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CursorCodecTest {
    private final CursorCodec codec = new CursorCodec(CursorCodec.deriveSecret(new byte[32]));
    private final Cursor cursor = new Cursor(7, CursorCodec.readerDigest("ab".repeat(32)),
            CursorCodec.scopeDigest(List.of("0b9c3f5e-4d1e-4bde-8a57-8d2b1c1f6e00")), new PolicyStamp(1_795_000_000_123_456L, -3_141_592_653_589L),
            Phase.DELTA, 1_795_000_001_000_000L, 1_794_999_881_000_000L, 5_000_000_123L, 5_000_000_456L, new Position(1_795_000_000_999_999L, 2, UUID.randomUUID()));

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
        assertThat(decoded.priorXmin()).isEqualTo(cursor.priorXmin());
        assertThat(decoded.sessionXmin()).isEqualTo(cursor.sessionXmin());
        assertThat(decoded.position()).isEqualTo(cursor.position());
    }

    /**
     * Cursors issued before floor and xmins existed stay valid across an upgrade: their floor is their
     * policy stamp, and unknown xmins (0) make the next session send its whole overlap.
     */
    @Test
    void readsVersionOneCursorsWithThePolicyStampAsFloor() throws Exception {
        byte[] v3 = Base64.getUrlDecoder().decode(codec.encode(cursor));
        int floorAt = 1 + 1 + 8 + 16 + 16 + 8 + 8;
        int added = 8 + 8 + 8;
        // The epoch (last 8 bytes of the body) falls off the end of the shorter copy.
        byte[] body = new byte[v3.length - 32 - added - 8];
        System.arraycopy(v3, 0, body, 0, floorAt);
        System.arraycopy(v3, floorAt + added, body, floorAt, body.length - floorAt);
        body[0] = 1;

        Cursor decoded = codec.decode(signed(body));
        assertThat(decoded.policy()).isEqualTo(new PolicyStamp(cursor.policy().micros(), PolicyStamp.FIRST_EPOCH));
        assertThat(decoded.floor()).isEqualTo(cursor.policy().micros());
        assertThat(decoded.priorXmin()).isZero();
        assertThat(decoded.sessionXmin()).isZero();
        assertThat(decoded.position()).isEqualTo(cursor.position());
        assertThat(decoded.sessionStart()).isEqualTo(cursor.sessionStart());
    }

    /** Cursors issued before the database epoch existed carry the first epoch, which a never-restored database has. */
    @Test
    void readsVersionTwoCursorsInTheFirstEpoch() throws Exception {
        byte[] v3 = Base64.getUrlDecoder().decode(codec.encode(cursor));
        byte[] body = java.util.Arrays.copyOf(v3, v3.length - 32 - 8);
        body[0] = 2;

        Cursor decoded = codec.decode(signed(body));
        assertThat(decoded.policy()).isEqualTo(new PolicyStamp(cursor.policy().micros(), PolicyStamp.FIRST_EPOCH));
        assertThat(decoded.floor()).isEqualTo(cursor.floor());
        assertThat(decoded.priorXmin()).isEqualTo(cursor.priorXmin());
        assertThat(decoded.sessionXmin()).isEqualTo(cursor.sessionXmin());
        assertThat(decoded.position()).isEqualTo(cursor.position());
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
            assertThatThrownBy(() -> codec.decode(text)).isInstanceOf(IncrementalError.class)
                    .extracting(e -> ((IncrementalError) e).code()).isEqualTo("incremental_invalid_cursor");
        }
    }

    @Test
    void aCursorSignedWithAnotherSecretIsRefused() {
        CursorCodec other = new CursorCodec("another deployment's secret".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> codec.decode(other.encode(cursor))).isInstanceOf(IncrementalError.class)
                .extracting(e -> ((IncrementalError) e).code()).isEqualTo("incremental_invalid_cursor");
    }

    @Test
    void scopeDigestsDependOnTheScope() {
        assertThat(CursorCodec.scopeDigest(List.of())).isNotEqualTo(CursorCodec.scopeDigest(List.of("a")));
        assertThat(CursorCodec.readerDigest("a")).isNotEqualTo(CursorCodec.readerDigest("b"));
    }
}
