package chat.buzz.client;

import chat.buzz.protocol.Hex;
import chat.buzz.protocol.Sha256;
import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * The digest of PROTOCOL 4.4a: XOR of SHA-256(d as 16 bytes || head id as 32 bytes) over a set of
 * artifacts. XOR makes it independent of order and lets members be added one at a time.
 */
public final class Digest {
    private final byte[] value = new byte[32];
    private long count;

    public Digest add(String d, String headId) {
        UUID id = UUID.fromString(d);
        byte[] member = Sha256.digest(ByteBuffer.allocate(48)
                .putLong(id.getMostSignificantBits())
                .putLong(id.getLeastSignificantBits())
                .put(Hex.decode(headId, 32))
                .array());
        for (int i = 0; i < value.length; i++) {
            value[i] ^= member[i];
        }
        count++;
        return this;
    }

    public long count() {
        return count;
    }

    public String hex() {
        return Hex.encode(value);
    }
}
