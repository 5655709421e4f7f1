package chat.buzz.protocol;

import java.time.Clock;
import java.util.List;

/** WebSocket AUTH (PROTOCOL.md 2.2). */
public final class Nip42 {
    static final long MAX_SKEW_SECONDS = 600;

    private Nip42() {}

    public static Event authEvent(NostrKeys keys, String relayUrl, String challenge, long now) {
        return keys.sign(
                Kinds.RELAY_AUTH,
                now,
                List.of(List.of(Tags.RELAY_URL, relayUrl), List.of(Tags.CHALLENGE, challenge)),
                "");
    }

    /** Returns the authenticated pubkey. */
    public static String verify(Event e, String relayUrl, String challenge, Clock clock) {
        if (e.kind() != Kinds.RELAY_AUTH) {
            throw new Nip42Exception("wrong kind");
        }
        if (!e.hasValidId()) {
            throw new Nip42Exception("invalid event id");
        }
        if (!e.hasValidSignature()) {
            throw new Nip42Exception("invalid signature");
        }
        String skew = AuthTime.skewProblem(e.createdAt(), clock, MAX_SKEW_SECONDS);
        if (skew != null) {
            throw new Nip42Exception(skew);
        }
        String relay = e.tag(Tags.RELAY_URL).orElseThrow(() -> new Nip42Exception("missing relay tag"));
        if (!UrlMatch.sameResource(relay, relayUrl)) {
            throw new Nip42Exception("relay url mismatch");
        }
        String signedChallenge = e.tag(Tags.CHALLENGE).orElseThrow(() -> new Nip42Exception("missing challenge tag"));
        if (!signedChallenge.equals(challenge)) {
            throw new Nip42Exception("challenge mismatch");
        }
        return e.pubkey();
    }
}
