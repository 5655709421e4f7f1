package chat.buzz.protocol;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Client side of NIP-98 signed HTTP (PROTOCOL.md 2.1). */
public final class Nip98 {

    private static final SecureRandom RANDOM = new SecureRandom();

    private Nip98() {}

    public static String authorizationHeader(
            NostrKeys keys, String method, String absoluteUrl, byte[] bodyOrNull, long nowEpochSeconds) {
        List<List<String>> tags = new ArrayList<>();
        tags.add(List.of(Tags.URL, absoluteUrl));
        tags.add(List.of(Tags.METHOD, method));
        if (bodyOrNull != null && bodyOrNull.length > 0) {
            tags.add(List.of(Tags.PAYLOAD_HASH, Sha256.hex(bodyOrNull)));
        }
        // Without a nonce, two identical requests in one second share an id and the
        // relay's replay guard would refuse the second.
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        tags.add(List.of(Tags.NONCE, Hex.encode(nonce)));
        Event event = keys.sign(Kinds.HTTP_AUTH, nowEpochSeconds, tags, "");
        return "Nostr " + Base64.getEncoder().encodeToString(event.toJson().getBytes(StandardCharsets.UTF_8));
    }
}
