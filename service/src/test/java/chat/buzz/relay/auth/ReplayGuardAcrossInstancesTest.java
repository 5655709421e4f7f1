package chat.buzz.relay.auth;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestRelay;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PROTOCOL 2.1 step 6 with two relay instances on one database: an Authorization header is served once,
 * whichever instance it reaches and however many copies arrive at the same moment, and the guard's row
 * is committed before the answer, so an instance gone right after answering leaves nothing to replay.
 */
@IntegrationTest
class ReplayGuardAcrossInstancesTest {
    @RegisterExtension
    static final TestRelay FIRST = TestRelay.create();

    private static final String QUERY = "[{\"artifact\":\"current\"}]";
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
    void copiesOfOneHeaderSentToBothInstancesAtOnceAreServedExactlyOnce() throws Exception {
        String header = header();
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
                    return sendTo(target, header);
                }));
            }
            ready.await();
            go.countDown();
            int served = 0;
            int refused = 0;
            for (Future<String> reply : replies) {
                String response = reply.get();
                if (response.startsWith("HTTP/1.1 200")) {
                    served++;
                } else {
                    assertThat(response).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
                    refused++;
                }
            }
            assertThat(served).isEqualTo(1);
            assertThat(refused).isEqualTo(copies - 1);
        } finally {
            senders.shutdownNow();
        }
    }

    @Test
    void aHeaderServedByAnInstanceThatThenStopsIsRefusedByTheOther() throws Exception {
        TestRelay gone = TestRelay.anotherInstance(FIRST);
        gone.start();
        String header = header();
        try {
            assertThat(sendTo(gone, header)).startsWith("HTTP/1.1 200");
        } finally {
            gone.stop();
        }
        // Nothing of the stopped instance is left but what it committed before it answered.
        assertThat(sendTo(FIRST, header)).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
        assertThat(sendTo(second, header)).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
    }

    @Test
    void aGuardRowIsVisibleToOtherConnectionsWhenTheAnswerArrives() throws Exception {
        String header = header();
        String eventId = Event.parse(new String(
                        Base64.getDecoder().decode(header.substring("Nostr ".length())), StandardCharsets.UTF_8))
                .id();
        assertThat(sendTo(second, header)).startsWith("HTTP/1.1 200");
        long rows = FIRST.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM nip98_replay_guard WHERE event_id = :id")
                        .bind("id", eventId)
                        .mapTo(Long.class)
                        .one());
        assertThat(rows).isEqualTo(1);
    }

    /** A fresh header for the first instance's URL; every instance is sent it with that instance's Host. */
    private String header() {
        return Nip98.authorizationHeader(
                alice,
                "POST",
                FIRST.baseUrl() + "/query",
                QUERY.getBytes(StandardCharsets.UTF_8),
                System.currentTimeMillis() / 1000);
    }

    private static String sendTo(TestRelay relay, String header) throws Exception {
        String host = FIRST.baseUrl().substring("http://".length());
        return RawHttp.exchange(
                relay.baseUrl(),
                "POST /query HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + header + "\r\nContent-Length: "
                        + QUERY.length() + "\r\nConnection: close\r\n\r\n" + QUERY);
    }
}
