package chat.buzz.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Nip98VerifierTest {
    private static final long NOW = 1_700_000_000L;
    private static final String URL = "https://relay.example.com:8443/events?x=1";
    private static final byte[] BODY = "{\"kind\":1}".getBytes(StandardCharsets.UTF_8);
    private static final NostrKeys KEYS = NostrKeys.generate();

    private final Nip98Verifier verifier = new Nip98Verifier(Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC));

    private static String header(Event e) {
        return "Nostr " + Base64.getEncoder().encodeToString(e.toJson().getBytes(StandardCharsets.UTF_8));
    }

    private static List<List<String>> tags(String u, String method, String payload) {
        List<List<String>> tags = new ArrayList<>();
        if (u != null) {
            tags.add(List.of(Tags.URL, u));
        }
        if (method != null) {
            tags.add(List.of(Tags.METHOD, method));
        }
        if (payload != null) {
            tags.add(List.of(Tags.PAYLOAD_HASH, payload));
        }
        return tags;
    }

    private static String signed(long createdAt, List<List<String>> tags) {
        return header(KEYS.sign(Kinds.HTTP_AUTH, createdAt, tags, ""));
    }

    private void assertReason(String header, String method, String url, byte[] body, String reason) {
        assertThatThrownBy(() -> verifier.verify(header, method, url, body))
                .isInstanceOf(Nip98Exception.class)
                .hasMessage(reason);
    }

    @Test
    void acceptsHeaderMadeByTheClientHelper() {
        String header = Nip98.authorizationHeader(KEYS, "POST", URL, BODY, NOW);
        Nip98Result result = verifier.verify(header, "POST", URL, BODY);
        assertThat(result.pubkey()).isEqualTo(KEYS.publicKeyHex());
        assertThat(result.createdAt()).isEqualTo(NOW);
        Event event = Event.parse(new String(Base64.getDecoder().decode(header.substring(6)), StandardCharsets.UTF_8));
        assertThat(result.eventId()).isEqualTo(event.id());
        assertThat(event.kind()).isEqualTo(Kinds.HTTP_AUTH);
        assertThat(event.tag(Tags.URL)).contains(URL);
        assertThat(event.tag(Tags.METHOD)).contains("POST");
        assertThat(event.tag(Tags.PAYLOAD_HASH)).contains(Sha256.hex(BODY));
        assertThat(event.tag(Tags.NONCE))
                .hasValueSatisfying(n -> assertThat(Hex.isLowerHex(n, 16)).isTrue());
    }

    @Test
    void clientHelperOmitsPayloadForEmptyBodyAndVariesNonce() {
        String a = Nip98.authorizationHeader(KEYS, "GET", URL, null, NOW);
        String b = Nip98.authorizationHeader(KEYS, "GET", URL, new byte[0], NOW);
        assertThat(a).isNotEqualTo(b);
        for (String h : List.of(a, b)) {
            Event e = Event.parse(new String(Base64.getDecoder().decode(h.substring(6)), StandardCharsets.UTF_8));
            assertThat(e.tagCount(Tags.PAYLOAD_HASH)).isZero();
            assertThat(verifier.verify(h, "GET", URL, null).pubkey()).isEqualTo(KEYS.publicKeyHex());
        }
    }

    @Test
    void acceptsLenientButAllowedVariants() {
        String header = signed(NOW + 60, tags("HTTPS://Relay.Example.COM:8443/events/?x=1", "post", null));
        assertThat(verifier.verify(header.replace("Nostr ", "nOsTr "), "POST", URL, null)
                        .pubkey())
                .isEqualTo(KEYS.publicKeyHex());
        assertThat(verifier.verify(signed(NOW - 60, tags(URL, "POST", null)), "post", URL, new byte[0]))
                .isNotNull();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "NULL",
                "''",
                "Nostr",
                "Bearer abc",
                "Nostr !!!notbase64",
                "Basic dXNlcjpwYXNz",
                "Nostr /w==",
            })
    void malformedHeader(String header) {
        assertReason(header, "POST", URL, null, "malformed authorization header");
    }

    @Test
    void malformedEventReportsDetail() {
        String notObject = "Nostr " + Base64.getEncoder().encodeToString("[1,2]".getBytes(StandardCharsets.UTF_8));
        assertReason(notObject, "GET", URL, null, "malformed auth event: event must be a JSON object");
        Event e = KEYS.sign(Kinds.HTTP_AUTH, NOW, tags(URL, "GET", null), "");
        String json = e.toJson().replace("\"kind\":" + Kinds.HTTP_AUTH, "\"kind\":\"" + Kinds.HTTP_AUTH + "\"");
        String header = "Nostr " + Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
        assertReason(header, "GET", URL, null, "malformed auth event: kind must be an integer");
    }

    @Test
    void wrongKind() {
        assertReason(header(KEYS.sign(1, NOW, tags(URL, "GET", null), "")), "GET", URL, null, "wrong kind");
    }

    @Test
    void invalidEventId() {
        Event e = KEYS.sign(Kinds.HTTP_AUTH, NOW, tags(URL, "GET", null), "");
        Event forged = new Event(e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), "changed", e.sig());
        assertReason(header(forged), "GET", URL, null, "invalid event id");
    }

    @Test
    void invalidSignature() {
        Event e = KEYS.sign(Kinds.HTTP_AUTH, NOW, tags(URL, "GET", null), "");
        Event other = NostrKeys.generate().sign(Kinds.HTTP_AUTH, NOW, tags(URL, "GET", null), "");
        Event forged = new Event(e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), "", other.sig());
        assertReason(header(forged), "GET", URL, null, "invalid signature");
    }

    @Test
    void tooOldAndFromTheFuture() {
        assertReason(signed(NOW - 61, tags(URL, "GET", null)), "GET", URL, null, "auth event too old");
        assertReason(signed(NOW + 61, tags(URL, "GET", null)), "GET", URL, null, "auth event from the future");
    }

    @Test
    void missingAndMismatchedUrl() {
        assertReason(signed(NOW, tags(null, "GET", null)), "GET", URL, null, "missing u tag");
        assertReason(
                signed(NOW, List.of(List.of(Tags.URL), List.of(Tags.METHOD, "GET"))),
                "GET",
                URL,
                null,
                "missing u tag");
        for (String other : List.of(
                "https://relay.example.com:8443/Events?x=1",
                "https://relay.example.com/events?x=1",
                "http://relay.example.com:8443/events?x=1",
                "https://relay.example.com:8443/events?x=2",
                "https://relay.example.com:8443/events",
                "https://relay.example.com:8443/events?x=1#f",
                "https://relay.example.com:8443/events//?x=1",
                "relay.example.com:8443/events?x=1")) {
            assertReason(signed(NOW, tags(other, "GET", null)), "GET", URL, null, "url mismatch");
        }
    }

    @Test
    void missingAndMismatchedMethod() {
        assertReason(signed(NOW, tags(URL, null, null)), "GET", URL, null, "missing method tag");
        assertReason(signed(NOW, tags(URL, "GET", null)), "POST", URL, null, "method mismatch");
    }

    @Test
    void missingAndMismatchedPayload() {
        assertReason(signed(NOW, tags(URL, "POST", null)), "POST", URL, BODY, "missing payload tag");
        assertReason(
                signed(NOW, tags(URL, "POST", Sha256.hex("other".getBytes(StandardCharsets.UTF_8)))),
                "POST",
                URL,
                BODY,
                "payload mismatch");
        assertReason(
                signed(NOW, tags(URL, "POST", Sha256.hex(BODY).toUpperCase())), "POST", URL, BODY, "payload mismatch");
    }

    /** The first copy matching must not be enough: a second one is what a verifier reading another copy would see. */
    @Test
    void aSecondUMethodOrPayloadTagIsRefused() {
        String otherHash = Sha256.hex("other".getBytes(StandardCharsets.UTF_8));
        List<List<String>> twoUrls = tags(URL, "POST", Sha256.hex(BODY));
        twoUrls.add(List.of(Tags.URL, "https://evil.example/events"));
        assertReason(signed(NOW, twoUrls), "POST", URL, BODY, "duplicate u tag");
        List<List<String>> sameUrlTwice = tags(URL, "GET", null);
        sameUrlTwice.add(List.of(Tags.URL, URL));
        assertReason(signed(NOW, sameUrlTwice), "GET", URL, null, "duplicate u tag");

        List<List<String>> twoMethods = tags(URL, "POST", Sha256.hex(BODY));
        twoMethods.add(List.of(Tags.METHOD, "DELETE"));
        assertReason(signed(NOW, twoMethods), "POST", URL, BODY, "duplicate method tag");

        List<List<String>> twoPayloads = tags(URL, "POST", Sha256.hex(BODY));
        twoPayloads.add(List.of(Tags.PAYLOAD_HASH, otherHash));
        assertReason(signed(NOW, twoPayloads), "POST", URL, BODY, "duplicate payload tag");
        // Ignored for an empty body, but not when it is doubled: the event says two different things.
        assertReason(signed(NOW, twoPayloads), "POST", URL, null, "duplicate payload tag");

        List<List<String>> twoNonces = tags(URL, "POST", Sha256.hex(BODY));
        twoNonces.add(List.of(Tags.NONCE, "a"));
        twoNonces.add(List.of(Tags.NONCE, "b"));
        assertThat(verifier.verify(signed(NOW, twoNonces), "POST", URL, BODY).pubkey())
                .as("only the tags the checks read must be single")
                .isEqualTo(KEYS.publicKeyHex());
    }

    @Test
    void checksRunInTheDocumentedOrder() {
        // Each event breaks the named check and every later one; the earliest must win.
        String everythingWrong = header(KEYS.sign(1, NOW - 1000, tags("https://evil/", "DELETE", "00"), ""));
        assertReason(everythingWrong, "GET", URL, BODY, "wrong kind");

        Event e = KEYS.sign(Kinds.HTTP_AUTH, NOW - 1000, tags("https://evil/", "DELETE", "00"), "");
        Event badIdAndSig = new Event(e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), "x", "0".repeat(128));
        assertReason(header(badIdAndSig), "GET", URL, BODY, "invalid event id");
        Event badSig = new Event(e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), "", "0".repeat(128));
        assertReason(header(badSig), "GET", URL, BODY, "invalid signature");

        assertReason(signed(NOW - 1000, tags("https://evil/", "DELETE", "00")), "GET", URL, BODY, "auth event too old");
        assertReason(signed(NOW, tags("https://evil/", "DELETE", "00")), "GET", URL, BODY, "url mismatch");
        assertReason(signed(NOW, tags(URL, "DELETE", "00")), "GET", URL, BODY, "method mismatch");
        assertReason(signed(NOW, tags(URL, "GET", "00")), "GET", URL, BODY, "payload mismatch");
    }
}
