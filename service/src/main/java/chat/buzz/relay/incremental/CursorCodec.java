package chat.buzz.relay.incremental;

import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Turns cursors into opaque base64url text protected by HMAC-SHA256, and back. Version 3 layout:
 * version, phase, community, reader digest, scope digest, policy stamp, session start, floor, prior
 * and session snapshot xmins, position, the database epoch, then the MAC over everything before it.
 * The MAC is checked before any field is trusted. Versions 1 and 2 are still read, so cursors issued
 * before an upgrade stay valid: they carry the first epoch; version 1 has none of floor and xmins, so
 * its floor is the policy stamp, the earliest moment a cursor of that stamp can speak for, and with
 * unknown xmins the next session sends its whole overlap again.
 */
public final class CursorCodec {
    static final byte VERSION = 3;
    private static final byte VERSION_2 = 2;
    private static final byte VERSION_1 = 1;
    private static final int DIGEST_BYTES = 16;
    private static final int MAC_BYTES = 32;
    private static final int BODY_BYTES_V1 = 1 + 1 + 8 + DIGEST_BYTES + DIGEST_BYTES + 8 + 8 + 8 + 1 + 16;
    private static final int BODY_BYTES_V2 = BODY_BYTES_V1 + 8 + 8 + 8;
    private static final int BODY_BYTES = BODY_BYTES_V2 + 8;
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
        return hmac(new SecretKeySpec(relaySecretKey, ALGORITHM),
                "buzz incremental cursor secret v1".getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] readerDigest(String pubkey) {
        return digest("reader\n" + pubkey);
    }

    public static byte[] scopeDigest(List<String> sortedScope) {
        return digest("scope\n" + String.join("\n", sortedScope));
    }

    public String encode(Cursor cursor) {
        ByteBuffer body = ByteBuffer.allocate(BODY_BYTES + MAC_BYTES);
        body.put(VERSION).put((byte) cursor.phase().ordinal()).putLong(cursor.community())
                .put(cursor.reader()).put(cursor.scope())
                .putLong(cursor.policy().micros()).putLong(cursor.sessionStart()).putLong(cursor.floor())
                .putLong(cursor.priorXmin()).putLong(cursor.sessionXmin())
                .putLong(cursor.position().micros()).put((byte) cursor.position().source())
                .putLong(cursor.position().d().getMostSignificantBits())
                .putLong(cursor.position().d().getLeastSignificantBits())
                .putLong(cursor.policy().epoch());
        body.put(hmac(key, Arrays.copyOf(body.array(), BODY_BYTES)));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(body.array());
    }

    /** @throws IncrementalError incremental_invalid_cursor when undecodable or tampered with */
    public Cursor decode(String text) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw IncrementalError.invalidCursor("the cursor is not one this relay issued");
        }
        int bodyBytes = bytes.length == 0 ? 0 : switch (bytes[0]) {
            case VERSION -> BODY_BYTES;
            case VERSION_2 -> BODY_BYTES_V2;
            case VERSION_1 -> BODY_BYTES_V1;
            default -> 0;
        };
        if (bodyBytes == 0 || bytes.length != bodyBytes + MAC_BYTES) {
            throw IncrementalError.invalidCursor("the cursor is not one this relay issued");
        }
        byte[] expected = hmac(key, Arrays.copyOf(bytes, bodyBytes));
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(bytes, bodyBytes, bytes.length))) {
            throw IncrementalError.invalidCursor("the cursor was damaged or altered");
        }
        try {
            ByteBuffer body = ByteBuffer.wrap(bytes, 1, bodyBytes - 1);
            int phase = body.get();
            if (phase < 0 || phase >= Phase.values().length) {
                throw IncrementalError.invalidCursor("the cursor is not one this relay issued");
            }
            long community = body.getLong();
            byte[] reader = new byte[DIGEST_BYTES];
            body.get(reader);
            byte[] scope = new byte[DIGEST_BYTES];
            body.get(scope);
            long policyMicros = body.getLong();
            long sessionStart = body.getLong();
            boolean hasXmins = bodyBytes != BODY_BYTES_V1;
            long floor = hasXmins ? body.getLong() : policyMicros;
            long priorXmin = hasXmins ? body.getLong() : 0;
            long sessionXmin = hasXmins ? body.getLong() : 0;
            Position position = new Position(body.getLong(), body.get(), new UUID(body.getLong(), body.getLong()));
            long epoch = bodyBytes == BODY_BYTES ? body.getLong() : PolicyStamp.FIRST_EPOCH;
            PolicyStamp policy = new PolicyStamp(policyMicros, epoch);
            return new Cursor(community, reader, scope, policy, Phase.values()[phase], sessionStart, floor, priorXmin,
                    sessionXmin, position);
        } catch (BufferUnderflowException e) {
            throw IncrementalError.invalidCursor("the cursor is not one this relay issued");
        }
    }

    private static byte[] digest(String value) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)),
                    DIGEST_BYTES);
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
