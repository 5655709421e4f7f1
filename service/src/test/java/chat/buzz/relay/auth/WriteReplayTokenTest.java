package chat.buzz.relay.auth;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestRelay;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PROTOCOL 2.1 step 6 for writes, whose token the PostgreSQL guard records in the write's own
 * transaction: two relay instances on one database, a header served once whichever instance it reaches;
 * a refused write uses its token all the same; a write the database fails leaves neither its event nor its
 * token, so the same header may be sent again.
 */
@IntegrationTest
class WriteReplayTokenTest {
    @RegisterExtension
    static final TestRelay FIRST = TestRelay.create();

    private static TestRelay second;
    private final NostrKeys alice = NostrKeys.generate();

    @BeforeAll
    static void startSecond() throws Exception {
        second = TestRelay.anotherInstance(FIRST);
        second.start();
    }

    @AfterAll
    static void stopSecond() {
        second.stop();
    }

    @Test
    void anAcceptedWritesHeaderIsRefusedByTheOtherInstanceAndTheWriteCommittedWithItsToken() throws Exception {
        Event create = Nostr.createChannel(alice, UUID.randomUUID(), "open");
        String header = header(alice, create);
        assertThat(sendTo(FIRST, header, create)).startsWith("HTTP/1.1 200").contains("\"accepted\":true");
        assertThat(sendTo(second, header, create)).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
        assertThat(sendTo(FIRST, header, create)).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
        assertThat(tokenRows(header)).isEqualTo(1);
        assertThat(eventRows(create)).isEqualTo(1);
    }

    @Test
    void copiesOfOneWriteHeaderSentToBothInstancesAtOnceAreServedExactlyOnce() throws Exception {
        Event create = Nostr.createChannel(alice, UUID.randomUUID(), "open");
        String header = header(alice, create);
        int copies = 16;
        CountDownLatch ready = new CountDownLatch(copies);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService senders = Executors.newFixedThreadPool(copies);
        try {
            List<Future<String>> replies = new ArrayList<>();
            for (int i = 0; i < copies; i++) {
                TestRelay target = i % 2 == 0 ? FIRST : second;
                replies.add(senders.submit(() -> {
                    ready.countDown();
                    go.await();
                    return sendTo(target, header, create);
                }));
            }
            ready.await();
            go.countDown();
            int served = 0;
            for (Future<String> reply : replies) {
                String response = reply.get();
                if (response.startsWith("HTTP/1.1 200")) {
                    assertThat(response).contains("\"accepted\":true");
                    served++;
                } else {
                    assertThat(response).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
                }
            }
            assertThat(served).isEqualTo(1);
            assertThat(eventRows(create)).isEqualTo(1);
        } finally {
            senders.shutdownNow();
        }
    }

    @Test
    void aRefusedWriteWritesNoEventButUsesItsToken() throws Exception {
        // A revision of an artifact nobody created: refused inside the write's transaction.
        Event orphan = Nostr.revision(alice, UUID.randomUUID(), UUID.randomUUID(), "update", "0".repeat(64), "t");
        String header = header(alice, orphan);
        assertThat(sendTo(second, header, orphan))
                .contains("\"accepted\":false")
                .contains("not writable");
        assertThat(eventRows(orphan)).isZero();
        assertThat(tokenRows(header)).isEqualTo(1);
        assertThat(sendTo(FIRST, header, orphan)).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
    }

    @Test
    void aWriteTheDatabaseFailsLeavesNeitherItsEventNorItsTokenAndItsHeaderMaySimplyBeSentAgain() throws Exception {
        NostrKeys failing = NostrKeys.generate();
        Event create = Nostr.createChannel(failing, UUID.randomUUID(), "open");
        String header = header(failing, create);
        FIRST.jdbi().useHandle(h -> h.execute("""
                CREATE FUNCTION test_fail_event_insert() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'the test refuses this insert'; END $$"""));
        FIRST.jdbi()
                .useHandle(h -> h.execute(
                        "CREATE TRIGGER test_fail_event_insert BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.pubkey = '"
                                + failing.publicKeyHex() + "') EXECUTE FUNCTION test_fail_event_insert()"));
        try {
            assertThat(sendTo(FIRST, header, create)).startsWith("HTTP/1.1 5");
        } finally {
            FIRST.jdbi().useHandle(h -> h.execute("DROP TRIGGER test_fail_event_insert ON events"));
            FIRST.jdbi().useHandle(h -> h.execute("DROP FUNCTION test_fail_event_insert()"));
        }
        assertThat(eventRows(create)).isZero();
        assertThat(tokenRows(header)).isZero();
        assertThat(sendTo(second, header, create)).startsWith("HTTP/1.1 200").contains("\"accepted\":true");
        assertThat(sendTo(FIRST, header, create)).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
    }

    private static String header(NostrKeys keys, Event event) {
        return Nip98.authorizationHeader(
                keys,
                "POST",
                FIRST.baseUrl() + "/events",
                event.toJson().getBytes(StandardCharsets.UTF_8),
                System.currentTimeMillis() / 1000);
    }

    private static long tokenRows(String header) {
        String tokenId = Event.parse(new String(
                        Base64.getDecoder().decode(header.substring("Nostr ".length())), StandardCharsets.UTF_8))
                .id();
        return FIRST.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM nip98_replay_guard WHERE event_id = :id")
                        .bind("id", tokenId)
                        .mapTo(Long.class)
                        .one());
    }

    private static long eventRows(Event event) {
        return FIRST.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM events WHERE id = :id")
                        .bind("id", event.id())
                        .mapTo(Long.class)
                        .one());
    }

    /** Every instance is sent the first instance's Host, the URL the header signs. */
    private static String sendTo(TestRelay relay, String header, Event event) throws Exception {
        String host = FIRST.baseUrl().substring("http://".length());
        byte[] body = event.toJson().getBytes(StandardCharsets.UTF_8);
        return RawHttp.exchange(
                relay.baseUrl(),
                "POST /events HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + header
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                        + "\r\nConnection: close\r\n\r\n" + event.toJson());
    }
}
