package chat.buzz.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;

/**
 * Server side of NIP-98, steps 1-5 of PROTOCOL.md 2.1 in that order (each of steps 3-5 refuses a
 * doubled tag before it compares); the replay guard
 * (step 6) needs shared state and lives in the service. Thread-safe.
 */
public final class Nip98Verifier {
    // Far above any honest auth event; stops a huge header from being decoded at all.
    static final int MAX_HEADER_CHARS = 64 * 1024;

    private final Clock clock;

    public Nip98Verifier(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Nip98Result verify(String authorizationHeaderValue, String method, String absoluteUrl, byte[] bodyOrNull) {
        Event event = decode(authorizationHeaderValue);
        if (event.kind() != Kinds.HTTP_AUTH) {
            throw new Nip98Exception("wrong kind");
        }
        if (!event.hasValidId()) {
            throw new Nip98Exception("invalid event id");
        }
        if (!event.hasValidSignature()) {
            throw new Nip98Exception("invalid signature");
        }
        String skew = AuthTime.skewProblem(event.createdAt(), clock, Limits.HTTP_AUTH_SKEW_SECONDS);
        if (skew != null) {
            throw new Nip98Exception(skew);
        }
        refuseDuplicate(event, Tags.URL);
        String u = event.tag(Tags.URL).orElseThrow(() -> new Nip98Exception("missing u tag"));
        if (!UrlMatch.sameResource(u, absoluteUrl)) {
            throw new Nip98Exception("url mismatch");
        }
        refuseDuplicate(event, Tags.METHOD);
        String signedMethod = event.tag(Tags.METHOD).orElseThrow(() -> new Nip98Exception("missing method tag"));
        if (method == null || !signedMethod.toUpperCase(Locale.ROOT).equals(method.toUpperCase(Locale.ROOT))) {
            throw new Nip98Exception("method mismatch");
        }
        refuseDuplicate(event, Tags.PAYLOAD_HASH);
        if (bodyOrNull != null && bodyOrNull.length > 0) {
            String payload = event.tag(Tags.PAYLOAD_HASH).orElseThrow(() -> new Nip98Exception("missing payload tag"));
            byte[] expected = Sha256.hex(bodyOrNull).getBytes(StandardCharsets.US_ASCII);
            if (!MessageDigest.isEqual(expected, payload.getBytes(StandardCharsets.UTF_8))) {
                throw new Nip98Exception("payload mismatch");
            }
        }
        return new Nip98Result(event.pubkey(), event.id(), event.createdAt());
    }

    /**
     * The checks read the first copy of a tag; a second one would let an event say one thing to this
     * relay and another to anything that reads the last copy (a proxy, a log, another verifier).
     */
    private static void refuseDuplicate(Event event, String tag) {
        if (event.tagCount(tag) > 1) {
            throw new Nip98Exception("duplicate " + tag + " tag");
        }
    }

    private static Event decode(String header) {
        if (header == null || header.length() > MAX_HEADER_CHARS) {
            throw new Nip98Exception("malformed authorization header");
        }
        String value = header.strip();
        int space = value.indexOf(' ');
        if (space < 0 || !value.substring(0, space).equalsIgnoreCase("Nostr")) {
            throw new Nip98Exception("malformed authorization header");
        }
        String token = value.substring(space + 1).strip();
        String json;
        try {
            byte[] raw = Base64.getDecoder().decode(token);
            json = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(raw))
                    .toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            throw new Nip98Exception("malformed authorization header");
        }
        try {
            return Event.parse(json);
        } catch (MalformedEventException e) {
            throw new Nip98Exception("malformed auth event: " + e.getMessage());
        }
    }
}
