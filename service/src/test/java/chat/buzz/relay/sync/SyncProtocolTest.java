package chat.buzz.relay.sync;

import static chat.buzz.relay.sync.World.heads;
import static chat.buzz.relay.sync.World.noScope;
import static chat.buzz.relay.sync.World.scopeFilter;
import static chat.buzz.relay.testing.SyncSocket.verb;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.Nip42;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PROTOCOL 2.2 and 5 on one relay: AUTH, the snapshot, malformed input and the per-connection limits. */
@IntegrationTest
class SyncProtocolTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.sync", "true"), ConfigOverride.config("gates.incremental", "true"));

    private final NostrKeys alice = NostrKeys.generate();
    private final NostrKeys bob = NostrKeys.generate();
    // One model per class: every test's channels share the class's database, and open ones are visible to all.
    private static final World world = new World(RELAY::client);

    @Test
    void snapshotIsTheDiscoverableSetForEachReaderAndScope() {
        UUID listed = world.channel(alice, true, false, false);
        UUID unlisted = world.channel(alice, true, true, false);
        UUID secret = world.channel(alice, false, false, false);
        UUID ephemeral = world.channel(alice, true, false, true);
        // More artifacts than one snapshot chunk (7 in test-relay.yml), so keyset paging is exercised.
        for (int i = 0; i < 10; i++) {
            world.create(alice, listed);
        }
        world.create(alice, unlisted);
        world.create(alice, secret);
        world.create(alice, ephemeral);
        world.delete(alice, world.create(alice, listed));
        world.redactHead(alice, world.create(alice, listed));
        UUID moved = world.create(alice, listed);
        world.move(alice, moved, secret);

        assertSnapshot(alice, noScope());
        assertSnapshot(bob, noScope());
        assertSnapshot(bob, Set.of(unlisted));
        assertSnapshot(bob, Set.of(secret, listed));
        assertSnapshot(alice, Set.of(secret));
        assertThat(world.discoverable(alice.publicKeyHex(), noScope())).hasSize(13);
        assertThat(world.discoverable(bob.publicKeyHex(), noScope())).hasSize(10);
    }

    private void assertSnapshot(NostrKeys reader, Set<UUID> scope) {
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(reader);
            client.subscribe("s", scopeFilter(scope));
            client.awaitEose("s");
            assertThat(heads(client.store("s")))
                    .isEqualTo(world.discoverable(reader.publicKeyHex(), scope))
                    .as("the incremental bootstrap of the same reader and scope")
                    .isEqualTo(incrementalBootstrap(reader, scope));
            long events = client.received().stream()
                    .filter(m -> verb(m).equals("EVENT"))
                    .count();
            assertThat(events)
                    .as("one EVENT per artifact")
                    .isEqualTo(client.store("s").size());
        }
    }

    /** PROTOCOL 4.1: pages through an incremental bootstrap over signed HTTP, following more. */
    private static java.util.Map<String, String> incrementalBootstrap(NostrKeys reader, Set<UUID> scope) {
        java.util.Map<String, String> heads = new java.util.HashMap<>();
        String cursor = null;
        while (true) {
            String filter = scopeFilter(scope).replace("\"sync\"", "\"incremental\"");
            if (cursor != null) {
                filter = filter.substring(0, filter.length() - 1) + ",\"since\":\"" + cursor + "\"}";
            }
            var reply = RELAY.client().query(reader, "[" + filter + "]");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            JsonNode page = reply.json();
            for (JsonNode entry : page.get("entries")) {
                assertThat(entry.get("op").asText())
                        .as("a bootstrap has only upserts")
                        .isEqualTo("upsert");
                heads.put(entry.get("d").asText(), entry.get("event").get("id").asText());
            }
            if (!page.get("more").asBoolean()) {
                return heads;
            }
            cursor = page.get("cursor").asText();
        }
    }

    @Test
    void authAnswersOkWithTheAuthenticatedEvent() {
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            String challenge = client.challenge();
            assertThat(challenge).matches("[0-9a-f]{32}");
            Event auth = Nip42.authEvent(alice, client.url(), challenge, Nostr.now());
            JsonNode ok = client.sendAuth(auth);
            assertThat(ok.toString()).isEqualTo("[\"OK\",\"" + auth.id() + "\",true,\"\"]");
            JsonNode again = client.sendAuth(Nip42.authEvent(alice, client.url(), challenge, Nostr.now() - 5));
            assertThat(again.get(2).asBoolean())
                    .as(client.received().toString())
                    .isFalse();
            assertThat(again.get(3).asText()).startsWith("invalid: ").contains("already authenticated");
        }
    }

    @Test
    void authFailuresSayWhyAndLeaveTheConnectionUsable() {
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            String challenge = client.challenge();
            assertRefused(
                    client,
                    Nip42.authEvent(alice, client.url(), "not-the-challenge", Nostr.now()),
                    "challenge mismatch");
            assertRefused(
                    client,
                    Nip42.authEvent(alice, "ws://elsewhere.example/", challenge, Nostr.now()),
                    "relay url mismatch");
            Event good = Nip42.authEvent(alice, client.url(), challenge, Nostr.now());
            Event other = Nip42.authEvent(bob, client.url(), challenge, Nostr.now());
            Event forged = new Event(
                    other.id(),
                    alice.publicKeyHex(),
                    other.createdAt(),
                    other.kind(),
                    other.tags(),
                    other.content(),
                    other.sig());
            assertRefused(client, forged, "invalid");
            Event wrongKind = alice.sign(
                    Kinds.HTTP_AUTH,
                    Nostr.now(),
                    List.of(List.of(Tags.RELAY_URL, client.url()), List.of(Tags.CHALLENGE, challenge)),
                    "");
            assertRefused(client, wrongKind, "wrong kind");
            Event stale = Nip42.authEvent(alice, client.url(), challenge, Nostr.now() - 3600);
            assertRefused(client, stale, "");

            client.subscribe("early", scopeFilter(noScope()));
            assertThat(client.awaitClosed("early")).startsWith("auth-required: ");

            assertThat(client.sendAuth(good).get(2).asBoolean()).isTrue();
            client.subscribe("later", scopeFilter(noScope()));
            client.awaitEose("later");
        }
    }

    private static void assertRefused(SyncSocket client, Event auth, String reasonPart) {
        JsonNode ok = client.sendAuth(auth);
        assertThat(ok.get(2).asBoolean()).as(ok.toString()).isFalse();
        assertThat(ok.get(3).asText()).startsWith("auth-required: ").contains(reasonPart);
    }

    @Test
    void malformedFramesAreAnsweredAndTheConnectionKeepsWorking() {
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(alice);
            assertNotice(client, "this is not json", "invalid: message is not JSON");
            assertNotice(client, "{\"REQ\":1}", "invalid: a message is a JSON array");
            assertNotice(client, "[]", "invalid: a message is a JSON array");
            assertNotice(client, "[42]", "invalid: a message is a JSON array");
            assertNotice(client, "[\"PUBLISH\"]", "invalid: unknown message type PUBLISH");
            assertNotice(client, "[\"REQ\"]", "invalid: REQ needs a subscription id");
            assertNotice(
                    client,
                    "[\"REQ\",\"" + "x".repeat(65) + "\",{\"artifact\":\"sync\"}]",
                    "invalid: REQ needs a subscription id");
            assertNotice(client, "[\"CLOSE\"]", "invalid: CLOSE takes one subscription id");
            assertNotice(client, "[\"AUTH\",\"token\"]", "invalid: AUTH takes one event");
            assertNotice(client, "[\"EVENT\",{}]", "unsupported: publish with POST /events");
            int before = client.received().size();
            client.sendBinary("[\"REQ\",\"bin\",{\"artifact\":\"sync\"}]".getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> client.received().stream()
                            .skip(before)
                            .anyMatch(m -> verb(m).equals("NOTICE")
                                    && m.get(1).asText().startsWith("invalid: binary frames")));

            assertClosed(client, "a", "[\"REQ\",\"a\"]", "invalid: a sync REQ has exactly one filter");
            assertClosed(
                    client,
                    "b",
                    "[\"REQ\",\"b\",{\"artifact\":\"current\"}]",
                    "invalid: the filter must have \"artifact\":\"sync\"");
            assertClosed(
                    client,
                    "c",
                    "[\"REQ\",\"c\",{\"artifact\":\"sync\",\"kinds\":[1]}]",
                    "invalid: unknown filter key kinds");
            assertClosed(
                    client,
                    "d",
                    "[\"REQ\",\"d\",{\"artifact\":\"sync\",\"#h\":[\"nope\"]}]",
                    "invalid: not a channel id");
            assertClosed(
                    client,
                    "e",
                    "[\"REQ\",\"e\",{\"artifact\":\"sync\",\"#h\":[]}]",
                    "invalid: #h must be a non-empty array");
            assertClosed(client, "f", "[\"REQ\",\"f\",[]]", "invalid: the filter must be a JSON object");
            assertClosed(
                    client,
                    "g",
                    "[\"REQ\",\"g\",{\"artifact\":\"sync\"},{\"artifact\":\"sync\"}]",
                    "invalid: a sync REQ has exactly one filter");
            assertClosed(
                    client,
                    "h",
                    "[\"REQ\",\"h\",{\"kinds\":[39000]},{\"artifact\":\"sync\"}]",
                    "invalid: a sync REQ has exactly one filter");

            client.subscribe("ok", scopeFilter(noScope()));
            client.awaitEose("ok");
            assertThat(client.closedConnection()).isNotDone();
        }
    }

    private static void assertNotice(SyncSocket client, String frame, String prefix) {
        int before = client.received().size();
        client.send(frame);
        JsonNode notice = await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> client.received().stream()
                                .skip(before)
                                .filter(m -> verb(m).equals("NOTICE"))
                                .findFirst(),
                        java.util.Optional::isPresent)
                .get();
        assertThat(notice.get(1).asText()).as(frame).startsWith(prefix);
    }

    private static void assertClosed(SyncSocket client, String subscription, String frame, String prefix) {
        client.send(frame);
        assertThat(client.awaitClosed(subscription)).as(frame).startsWith(prefix);
    }

    @Test
    void ttlChannelInScopeIsClosedWithTheChannelNamed() {
        UUID ephemeral = world.channel(alice, true, false, true);
        UUID listed = world.channel(alice, true, false, false);
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(alice);
            client.subscribe("t", scopeFilter(Set.of(listed, ephemeral)));
            assertThat(client.awaitClosed("t")).startsWith("invalid: channel " + ephemeral + " has a ttl");
            assertThat(client.hasEose("t")).isFalse();
        }
    }

    @Test
    void subscriptionsPerConnectionAreLimited() {
        int max = RELAY.configuration().getSync().getMaxSubscriptionsPerConnection();
        try (SyncSocket client = SyncSocket.connect(RELAY.baseUrl())) {
            client.authenticateOk(alice);
            for (int i = 0; i < max; i++) {
                client.subscribe("s" + i, scopeFilter(noScope()));
                client.awaitEose("s" + i);
            }
            client.subscribe("one-too-many", scopeFilter(noScope()));
            assertThat(client.awaitClosed("one-too-many")).startsWith("blocked: at most " + max + " subscriptions");
            // Replacing an existing id and closing one both make room again.
            client.subscribe("s0", scopeFilter(noScope()));
            client.send("[\"CLOSE\",\"s1\"]");
            client.subscribe("fits-now", scopeFilter(noScope()));
            client.awaitEose("fits-now");
        }
    }

    @Test
    void connectionsPerPubkeyAreLimitedPerInstance() {
        int max = RELAY.configuration().getSync().getMaxConnectionsPerPubkey();
        NostrKeys carol = NostrKeys.generate();
        List<SyncSocket> open = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < max; i++) {
                SyncSocket client = SyncSocket.connect(RELAY.baseUrl());
                open.add(client);
                client.authenticateOk(carol);
            }
            try (SyncSocket extra = SyncSocket.connect(RELAY.baseUrl())) {
                JsonNode ok = extra.authenticate(carol);
                assertThat(ok.get(2).asBoolean()).isFalse();
                assertThat(ok.get(3).asText()).startsWith("rate-limited: more than " + max + " connections");
                assertThat(extra.closedConnection()).succeedsWithin(Duration.ofSeconds(10));
            }
            open.get(0).subscribe("still", scopeFilter(noScope()));
            open.get(0).awaitEose("still");
            open.remove(0).close();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                try (SyncSocket replacement = SyncSocket.connect(RELAY.baseUrl())) {
                    assertThat(replacement.authenticate(carol).get(2).asBoolean())
                            .isTrue();
                }
            });
        } finally {
            open.forEach(SyncSocket::close);
        }
    }

    @Test
    void anOversizedFrameClosesOnlyThatConnection() {
        int max = RELAY.configuration().getSync().getMaxMessageBytes();
        try (SyncSocket big = SyncSocket.connect(RELAY.baseUrl());
                SyncSocket other = SyncSocket.connect(RELAY.baseUrl())) {
            big.authenticateOk(alice);
            other.authenticateOk(bob);
            big.send("[\"REQ\",\"x\",{\"artifact\":\"sync\",\"pad\":\"" + "p".repeat(max) + "\"}]");
            assertThat(big.closedConnection())
                    .succeedsWithin(Duration.ofSeconds(10))
                    .asString()
                    .startsWith("1009");
            other.subscribe("fine", scopeFilter(noScope()));
            other.awaitEose("fine");
        }
    }

    @Test
    void anUnknownHostIsRefusedBeforeTheHandshake() throws Exception {
        String response = rawUpgrade("unknown.example");
        assertThat(response).startsWith("HTTP/1.1 404");
        assertThat(response).contains("{\"error\":\"unknown community\"}");
        assertThat(rawUpgrade("localhost")).startsWith("HTTP/1.1 101");
    }

    private static String rawUpgrade(String host) throws Exception {
        URI uri = URI.create(RELAY.baseUrl());
        try (Socket socket = new Socket("127.0.0.1", uri.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET / HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            StringBuilder text = new StringBuilder();
            while (!text.toString().contains("\r\n\r\n")
                    || (text.toString().startsWith("HTTP/1.1 404")
                            && !text.toString().contains("}"))) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                text.append(new String(buffer, 0, n, StandardCharsets.ISO_8859_1));
            }
            return text.toString();
        }
    }

    @Test
    void informationDocumentListsSyncWhileTheGateIsOn() {
        var client = RELAY.client();
        JsonNode document = client.send(client.request("/")
                        .header("Accept", "application/nostr+json")
                        .GET())
                .json();
        assertThat(document.get("capabilities").toString()).contains("\"artifacts.sync\"");
    }
}
