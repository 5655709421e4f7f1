package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class Nip42Test {
    private static final long NOW = 1_700_000_000L;
    private static final String RELAY = "wss://relay.example.com/";
    private static final String CHALLENGE = "c-123";
    private static final NostrKeys KEYS = NostrKeys.generate();
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC);

    private static void assertReason(Event e, String reason) {
        assertThatThrownBy(() -> Nip42.verify(e, RELAY, CHALLENGE, CLOCK))
                .isInstanceOf(Nip42Exception.class)
                .hasMessage(reason);
    }

    @Test
    void acceptsAuthEventAndReturnsPubkey() {
        Event e = Nip42.authEvent(KEYS, RELAY, CHALLENGE, NOW);
        assertThat(e.kind()).isEqualTo(Kinds.RELAY_AUTH);
        assertThat(e.tag(Tags.RELAY_URL)).contains(RELAY);
        assertThat(e.tag(Tags.CHALLENGE)).contains(CHALLENGE);
        assertThat(Nip42.verify(e, RELAY, CHALLENGE, CLOCK)).isEqualTo(KEYS.publicKeyHex());
    }

    @Test
    void relayUrlIgnoresCaseOfSchemeAndHostAndTrailingSlash() {
        Event e = Nip42.authEvent(KEYS, "WSS://Relay.Example.com", CHALLENGE, NOW + 600);
        assertThat(Nip42.verify(e, RELAY, CHALLENGE, CLOCK)).isEqualTo(KEYS.publicKeyHex());
        assertReason(Nip42.authEvent(KEYS, "wss://relay.example.com/other", CHALLENGE, NOW), "relay url mismatch");
        assertReason(Nip42.authEvent(KEYS, "ws://relay.example.com/", CHALLENGE, NOW), "relay url mismatch");
    }

    @Test
    void rejectsEachFailureWithItsReason() {
        assertReason(
                KEYS.sign(1, NOW, List.of(List.of(Tags.RELAY_URL, RELAY), List.of(Tags.CHALLENGE, CHALLENGE)), ""),
                "wrong kind");
        Event good = Nip42.authEvent(KEYS, RELAY, CHALLENGE, NOW);
        assertReason(
                new Event(good.id(), good.pubkey(), good.createdAt(), good.kind(), good.tags(), "x", good.sig()),
                "invalid event id");
        assertReason(
                new Event(
                        good.id(),
                        good.pubkey(),
                        good.createdAt(),
                        good.kind(),
                        good.tags(),
                        "",
                        Nip42.authEvent(KEYS, RELAY, CHALLENGE, NOW + 1).sig()),
                "invalid signature");
        assertReason(Nip42.authEvent(KEYS, RELAY, CHALLENGE, NOW - 601), "auth event too old");
        assertReason(Nip42.authEvent(KEYS, RELAY, CHALLENGE, NOW + 601), "auth event from the future");
        assertReason(
                KEYS.sign(Kinds.RELAY_AUTH, NOW, List.of(List.of(Tags.CHALLENGE, CHALLENGE)), ""), "missing relay tag");
        assertReason(
                KEYS.sign(Kinds.RELAY_AUTH, NOW, List.of(List.of(Tags.RELAY_URL, RELAY)), ""), "missing challenge tag");
        assertReason(Nip42.authEvent(KEYS, RELAY, "c-124", NOW), "challenge mismatch");
        assertReason(Nip42.authEvent(KEYS, RELAY, "C-123", NOW), "challenge mismatch");
    }

    @Test
    void timeIsCheckedBeforeUrlAndChallenge() {
        assertReason(Nip42.authEvent(KEYS, "wss://elsewhere/", "nope", NOW - 601), "auth event too old");
    }
}
