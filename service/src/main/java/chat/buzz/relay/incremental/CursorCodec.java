package chat.buzz.relay.incremental;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.generators.HKDFBytesGenerator;
import org.bouncycastle.crypto.params.HKDFParameters;

/**
 * Turns cursors into opaque base64url text, and back. Version 7: the version byte, a random 96-bit
 * nonce, then the cursor's fields ({@link CursorLayout}, every snapshot with all its in-progress slots,
 * then when each judged list's last step was taken and the WAL position its last page reflected) sealed
 * with AES-256-GCM, the version byte as associated data. A cursor shows nothing without the key:
 * no ids, positions or transaction numbers. Its length grows only with the number of judged steps, which
 * follows from what its own reader was sent, so it says nothing about how busy the database was; most
 * cursors hold two steps and take under 1,000 characters. The key is derived from the cursor secret
 * with HKDF-SHA256 under a label of its own.
 *
 * <p>A previous secret, when configured, still opens cursors for one overlap after a rotation. Cursors
 * of version 6 (version 7 without the WAL position), of version 5 (version 6 without the step times), of version 4 (the same seal over listed snapshots padded with zeros to the largest cursor) and of
 * versions 1 to 3 (fields in the clear, HMAC-SHA256 under the secret itself, read when their MAC holds)
 * are still read, so an upgrade sends no reader back to the start; the relay answers with version 7.
 */
public final class CursorCodec {
    static final byte VERSION = 7;
    /** Version 7 without the replay position: still read, as a position every node has replayed. */
    private static final byte TIMED_VERSION = 6;
    /** Version 6 without the times of the judged steps: still read, as knowing none. */
    private static final byte SLOTTED_VERSION = 5;

    private static final byte PADDED_VERSION = 4;
    private static final byte LAST_SIGNED_VERSION = 3;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BYTES = 16;
    private static final int MAC_BYTES = 32;
    private static final int SEAL_BYTES = 1 + NONCE_BYTES + TAG_BYTES;
    /** The length of every version 4 cursor before base64. */
    static final int PADDED_BYTES = SEAL_BYTES + CursorLayout.MAX_BYTES;

    private static final String AEAD = "AES/GCM/NoPadding";
    private static final String MAC = "HmacSHA256";
    private static final byte[] AEAD_LABEL = "buzz incremental cursor aes-256-gcm v4".getBytes(StandardCharsets.UTF_8);
    private static final SecureRandom NONCES = new SecureRandom();

    private final List<Keys> keys;

    /** The keys of one secret: AES for version 4, and the secret itself for the signed versions. */
    private record Keys(SecretKeySpec aead, SecretKeySpec mac) {
        static Keys of(byte[] secret) {
            HKDFBytesGenerator hkdf = new HKDFBytesGenerator(new SHA256Digest());
            hkdf.init(new HKDFParameters(secret, null, AEAD_LABEL));
            byte[] aesKey = new byte[32];
            hkdf.generateBytes(aesKey, 0, aesKey.length);
            return new Keys(new SecretKeySpec(aesKey, "AES"), new SecretKeySpec(secret.clone(), MAC));
        }
    }

    public CursorCodec(byte[] secret) {
        this(secret, new byte[0]);
    }

    /** @param previousSecret the secret before the last rotation, still accepted; empty for none */
    public CursorCodec(byte[] secret, byte[] previousSecret) {
        if (secret.length < 16 || (previousSecret.length > 0 && previousSecret.length < 16)) {
            throw new IllegalArgumentException("cursor secret must have at least 16 bytes");
        }
        List<Keys> all = new ArrayList<>(List.of(Keys.of(secret)));
        if (previousSecret.length > 0) {
            all.add(Keys.of(previousSecret));
        }
        this.keys = List.copyOf(all);
    }

    /** A secret of its own for cursors, derived so that the relay key itself never seals cursors. */
    public static byte[] deriveSecret(byte[] relaySecretKey) {
        return hmac(
                new SecretKeySpec(relaySecretKey, MAC),
                "buzz incremental cursor secret v1".getBytes(StandardCharsets.UTF_8));
    }

    public static byte[] readerDigest(String pubkey) {
        return digest("reader\n" + pubkey);
    }

    public static byte[] scopeDigest(List<String> sortedScope) {
        return digest("scope\n" + String.join("\n", sortedScope));
    }

    public String encode(Cursor cursor) {
        ByteBuffer fields = ByteBuffer.allocate(
                CursorLayout.size(cursor, CursorLayout.Snapshots.SLOTTED) + CursorLayout.TRAILER_BYTES);
        CursorLayout.write(fields, cursor, CursorLayout.Snapshots.SLOTTED);
        CursorLayout.writeTrailer(fields, cursor);
        return seal(VERSION, fields.array());
    }

    /** Seals {@code fields} as a cursor of {@code version} (4 or 5). */
    String seal(byte version, byte[] fields) {
        byte[] nonce = new byte[NONCE_BYTES];
        NONCES.nextBytes(nonce);
        ByteBuffer sealed =
                ByteBuffer.allocate(SEAL_BYTES + fields.length).put(version).put(nonce);
        try {
            Cipher cipher = Cipher.getInstance(AEAD);
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(0).aead(), new GCMParameterSpec(8 * TAG_BYTES, nonce));
            cipher.updateAAD(new byte[] {version});
            cipher.doFinal(ByteBuffer.wrap(fields), sealed);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JVM", e);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(sealed.array());
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
        if (version == VERSION && slottedLengthFits(bytes.length - CursorLayout.TRAILER_BYTES)) {
            return read(open(bytes), VERSION, false);
        }
        if (version == TIMED_VERSION && slottedLengthFits(bytes.length - CursorLayout.STEP_TIMES_BYTES)) {
            return read(open(bytes), TIMED_VERSION, false);
        }
        if (version == SLOTTED_VERSION && slottedLengthFits(bytes.length)) {
            return read(open(bytes), SLOTTED_VERSION, false);
        }
        if (version == PADDED_VERSION && bytes.length == PADDED_BYTES) {
            return read(open(bytes), PADDED_VERSION, true);
        }
        if (version >= 1 && version <= LAST_SIGNED_VERSION && signedLengthFits(version, bytes.length)) {
            return read(verified(bytes), version, false);
        }
        throw notIssuedHere();
    }

    private ByteBuffer open(byte[] sealed) {
        GCMParameterSpec nonce = new GCMParameterSpec(8 * TAG_BYTES, sealed, 1, NONCE_BYTES);
        for (Keys key : keys) {
            try {
                Cipher cipher = Cipher.getInstance(AEAD);
                cipher.init(Cipher.DECRYPT_MODE, key.aead(), nonce);
                cipher.updateAAD(sealed, 0, 1);
                return ByteBuffer.wrap(cipher.doFinal(sealed, 1 + NONCE_BYTES, sealed.length - 1 - NONCE_BYTES));
            } catch (AEADBadTagException e) {
                // Sealed under another key, or altered: the next key may open it.
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES-GCM is part of every JVM", e);
            }
        }
        throw damaged();
    }

    private ByteBuffer verified(byte[] signed) {
        int bodyBytes = signed.length - MAC_BYTES;
        byte[] body = Arrays.copyOf(signed, bodyBytes);
        byte[] mac = Arrays.copyOfRange(signed, bodyBytes, signed.length);
        for (Keys key : keys) {
            if (MessageDigest.isEqual(hmac(key.mac(), body), mac)) {
                return ByteBuffer.wrap(body, 1, bodyBytes - 1);
            }
        }
        throw damaged();
    }

    /** Reads the fields; a padded cursor holds only zeros after them, any other nothing at all. */
    private static Cursor read(ByteBuffer fields, int version, boolean padded) {
        Cursor cursor;
        try {
            cursor = CursorLayout.read(fields, version);
        } catch (IllegalArgumentException e) {
            throw notIssuedHere();
        }
        while (padded && fields.hasRemaining()) {
            if (fields.get() != 0) {
                throw notIssuedHere();
            }
        }
        if (fields.hasRemaining()) {
            throw notIssuedHere();
        }
        return cursor;
    }

    /** The length before base64 of a cursor this relay issues (version 7) that holds {@code steps} steps. */
    static int issuedBytes(int steps) {
        return slottedBytes(steps) + CursorLayout.TRAILER_BYTES;
    }

    /** The length before base64 of a version 5 cursor (version 6 less its last field) with {@code steps} steps. */
    static int slottedBytes(int steps) {
        return SEAL_BYTES + CursorLayout.MIN_BYTES + steps * CursorLayout.SLOTTED_STEP_BYTES;
    }

    /** Whether a version 5 cursor of this length holds a whole number of steps, no more than two lists' worth. */
    private static boolean slottedLengthFits(int length) {
        int steps = length - slottedBytes(0);
        return steps >= 0
                && steps % CursorLayout.SLOTTED_STEP_BYTES == 0
                && steps / CursorLayout.SLOTTED_STEP_BYTES <= 2 * JudgedRows.MAX_STEPS;
    }

    private static boolean signedLengthFits(byte version, int length) {
        int fields = length - 1 - MAC_BYTES;
        return switch (version) {
            case 1 -> fields == CursorLayout.FIELDS_BYTES_V1;
            case 2 -> fields >= CursorLayout.FIXED_BYTES + 2 * CursorLayout.SNAPSHOT_BYTES;
            default -> fields >= CursorLayout.FIXED_BYTES + 2 * CursorLayout.JUDGED_BYTES;
        };
    }

    private static IncrementalError damaged() {
        return IncrementalError.invalidCursor("the cursor was damaged or altered");
    }

    private static IncrementalError notIssuedHere() {
        return IncrementalError.invalidCursor("the cursor is not one this relay issued");
    }

    private static byte[] digest(String value) {
        try {
            return Arrays.copyOf(
                    MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)),
                    CursorLayout.DIGEST_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    private static byte[] hmac(SecretKeySpec key, byte[] data) {
        try {
            Mac mac = Mac.getInstance(MAC);
            mac.init(key);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JVM", e);
        }
    }
}
