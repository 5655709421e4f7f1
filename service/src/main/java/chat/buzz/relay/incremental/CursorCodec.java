package chat.buzz.relay.incremental;

import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Turns cursors into opaque base64url text protected by HMAC-SHA256, and back. Version 3 layout:
 * version, phase, community, reader digest, scope digest, policy stamp (time and database epoch),
 * session start, floor, position, the prior and this session's judged rows (a bootstrap flag, a step
 * count, and per step its position and snapshot: xmin, xmax, count and the in-progress ids), then the
 * MAC over everything before it. The MAC is checked before any field is trusted. Cursors issued before
 * an upgrade are still read. Version 2 held one snapshot per session, its first page's: that is a
 * single step. Version 1 held none: its epoch is the first, its floor is its policy stamp (the earliest
 * moment a cursor of that stamp can speak for), and the next session sends its whole overlap again.
 */
public final class CursorCodec {
    static final byte VERSION = 3;
    private static final byte VERSION_2 = 2;
    private static final byte VERSION_1 = 1;
    private static final int DIGEST_BYTES = 16;
    private static final int MAC_BYTES = 32;
    private static final int BODY_BYTES_V1 = 1 + 1 + 8 + DIGEST_BYTES + DIGEST_BYTES + 8 + 8 + 8 + 1 + 16;
    private static final int FIXED_BYTES = BODY_BYTES_V1 + 8 + 8;
    private static final int SNAPSHOT_BYTES = 8 + 8 + 1;
    private static final int POSITION_BYTES = 8 + 1 + 16;
    private static final int JUDGED_BYTES = 1 + 1;
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    public CursorCodec(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("cursor secret must have at least 16 bytes");
        }
        this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
    }

    /** A secret of its own for cursors, derived so that the relay key itself never signs cursors. */
    public static byte[] deriveSecret(byte[] relaySecretKey) {
        return hmac(
                new SecretKeySpec(relaySecretKey, ALGORITHM),
                "buzz incremental cursor secret v1".getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] readerDigest(String pubkey) {
        return digest("reader\n" + pubkey);
    }

    public static byte[] scopeDigest(List<String> sortedScope) {
        return digest("scope\n" + String.join("\n", sortedScope));
    }

    public String encode(Cursor cursor) {
        int bodyBytes = FIXED_BYTES + judgedBytes(cursor.prior()) + judgedBytes(cursor.judged());
        ByteBuffer body = ByteBuffer.allocate(bodyBytes + MAC_BYTES);
        body.put(VERSION)
                .put((byte) cursor.phase().ordinal())
                .putLong(cursor.community())
                .put(cursor.reader())
                .put(cursor.scope())
                .putLong(cursor.policy().micros())
                .putLong(cursor.policy().epoch())
                .putLong(cursor.sessionStart())
                .putLong(cursor.floor());
        putPosition(body, cursor.position());
        putJudged(body, cursor.prior());
        putJudged(body, cursor.judged());
        body.put(hmac(key, Arrays.copyOf(body.array(), bodyBytes)));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(body.array());
    }

    /** @throws IncrementalError incremental_invalid_cursor when undecodable or tampered with */
    public Cursor decode(String text) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw notIssuedHere();
        }
        byte version = bytes.length > 0 ? bytes[0] : 0;
        boolean current = version == VERSION;
        boolean second = version == VERSION_2;
        boolean first = version == VERSION_1;
        if (!(current && bytes.length >= FIXED_BYTES + 2 * JUDGED_BYTES + MAC_BYTES)
                && !(second && bytes.length >= FIXED_BYTES + 2 * SNAPSHOT_BYTES + MAC_BYTES)
                && !(first && bytes.length == BODY_BYTES_V1 + MAC_BYTES)) {
            throw notIssuedHere();
        }
        int bodyBytes = bytes.length - MAC_BYTES;
        byte[] expected = hmac(key, Arrays.copyOf(bytes, bodyBytes));
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(bytes, bodyBytes, bytes.length))) {
            throw IncrementalError.invalidCursor("the cursor was damaged or altered");
        }
        try {
            ByteBuffer body = ByteBuffer.wrap(bytes, 1, bodyBytes - 1);
            int phase = body.get();
            if (phase < 0 || phase >= Phase.values().length) {
                throw notIssuedHere();
            }
            long community = body.getLong();
            byte[] reader = new byte[DIGEST_BYTES];
            body.get(reader);
            byte[] scope = new byte[DIGEST_BYTES];
            body.get(scope);
            long policyMicros = body.getLong();
            PolicyStamp policy = new PolicyStamp(policyMicros, first ? PolicyStamp.FIRST_EPOCH : body.getLong());
            long sessionStart = body.getLong();
            long floor = first ? policyMicros : body.getLong();
            Position position = position(body);
            JudgedRows prior = current ? judged(body) : second ? firstPageOnly(body) : JudgedRows.NONE;
            JudgedRows session = current ? judged(body) : second ? firstPageOnly(body) : JudgedRows.NONE;
            if (body.hasRemaining()) {
                throw notIssuedHere();
            }
            return new Cursor(
                    community,
                    reader,
                    scope,
                    policy,
                    Phase.values()[phase],
                    sessionStart,
                    floor,
                    prior,
                    session,
                    position);
        } catch (BufferUnderflowException e) {
            throw notIssuedHere();
        }
    }

    private static int snapshotBytes(TxSnapshot snapshot) {
        return SNAPSHOT_BYTES + 8 * snapshot.inProgress().size();
    }

    private static int judgedBytes(JudgedRows judged) {
        return JUDGED_BYTES
                + judged.steps().stream()
                        .mapToInt(step -> POSITION_BYTES + snapshotBytes(step.snapshot()))
                        .sum();
    }

    private static void putPosition(ByteBuffer body, Position position) {
        body.putLong(position.micros())
                .put((byte) position.source())
                .putLong(position.d().getMostSignificantBits())
                .putLong(position.d().getLeastSignificantBits());
    }

    private static Position position(ByteBuffer body) {
        return new Position(body.getLong(), body.get(), new UUID(body.getLong(), body.getLong()));
    }

    private static void putJudged(ByteBuffer body, JudgedRows judged) {
        body.put((byte) (judged.bootstrap() ? 1 : 0)).put((byte) judged.steps().size());
        for (JudgedRows.Step step : judged.steps()) {
            putPosition(body, step.after());
            putSnapshot(body, step.snapshot());
        }
    }

    private static JudgedRows judged(ByteBuffer body) {
        byte bootstrap = body.get();
        int count = Byte.toUnsignedInt(body.get());
        if ((bootstrap != 0 && bootstrap != 1) || count > JudgedRows.MAX_STEPS) {
            throw notIssuedHere();
        }
        List<JudgedRows.Step> steps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            steps.add(new JudgedRows.Step(position(body), snapshot(body)));
        }
        return new JudgedRows(bootstrap == 1, steps);
    }

    /** A version 2 snapshot: the first page's, which judged every row it could see at any position. */
    private static JudgedRows firstPageOnly(ByteBuffer body) {
        return JudgedRows.firstPage(false, snapshot(body));
    }

    private static void putSnapshot(ByteBuffer body, TxSnapshot snapshot) {
        body.putLong(snapshot.xmin()).putLong(snapshot.xmax()).put((byte)
                snapshot.inProgress().size());
        snapshot.inProgress().forEach(body::putLong);
    }

    private static TxSnapshot snapshot(ByteBuffer body) {
        long xmin = body.getLong();
        long xmax = body.getLong();
        int count = Byte.toUnsignedInt(body.get());
        if (count > TxSnapshot.MAX_IN_PROGRESS) {
            throw notIssuedHere();
        }
        List<Long> inProgress = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            inProgress.add(body.getLong());
        }
        return new TxSnapshot(xmin, xmax, inProgress);
    }

    private static IncrementalError notIssuedHere() {
        return IncrementalError.invalidCursor("the cursor is not one this relay issued");
    }

    private static byte[] digest(String value) {
        try {
            return Arrays.copyOf(
                    MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)), DIGEST_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    private static byte[] hmac(SecretKeySpec key, byte[] data) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JVM", e);
        }
    }
}
