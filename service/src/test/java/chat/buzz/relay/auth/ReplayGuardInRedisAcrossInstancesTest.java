package chat.buzz.relay.auth;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Nip98;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RawHttp;
import chat.buzz.relay.testing.TestRedis;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * PROTOCOL 2.1 step 6 with the guard in Redis: two relay instances that share nothing but the Redis (each
 * has a database of its own, so only Redis can tell one about the other) serve an Authorization header
 * once, whichever of them it reaches and however many copies arrive together, and refuse a replay with
 * the same 401 as the PostgreSQL guard; neither writes a guard row to its database.
 */
@IntegrationTest
class ReplayGuardInRedisAcrossInstancesTest {
    private static final String QUERY = "[{\"artifact\":\"current\"}]";
    private static final String PREFIX = TestRedis.freshPrefix();
    private static final Map<String, String> REDIS_GUARD = Map.of(
            "replayGuard.store",
            "redis",
            "replayGuard.redisUrl",
            TestRedis.url(),
            "replayGuard.redisKeyPrefix",
            PREFIX);

    @RegisterExtension
    static final TestRelay FIRST = TestRelay.create(REDIS_GUARD);

    @RegisterExtension
    static final TestRelay SECOND = TestRelay.create(REDIS_GUARD);

    private final NostrKeys alice = NostrKeys.generate();

    @Test
    void aHeaderServedByOneInstanceIsRefusedByTheOtherWithTheReplayCode() throws Exception {
        String header = header();
        assertThat(sendTo(FIRST, header)).startsWith("HTTP/1.1 200");
        String replay = sendTo(SECOND, header);
        assertThat(replay).startsWith("HTTP/1.1 401");
        assertThat(RawHttp.jsonError(replay, 401).path("error").asText()).isEqualTo("NIP-98: replay detected");
        assertThat(sendTo(FIRST, header)).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
        try (Jedis redis = TestRedis.connect()) {
            assertThat(redis.exists(PREFIX + eventIdOf(header))).isTrue();
        }
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
                TestRelay target = i % 2 == 0 ? FIRST : SECOND;
                replies.add(senders.submit(() -> {
                    ready.countDown();
                    go.await();
                    return sendTo(target, header);
                }));
            }
            ready.await();
            go.countDown();
            int served = 0;
            for (Future<String> reply : replies) {
                String response = reply.get();
                if (response.startsWith("HTTP/1.1 200")) {
                    served++;
                } else {
                    assertThat(response).startsWith("HTTP/1.1 401").contains("NIP-98: replay detected");
                }
            }
            assertThat(served).isEqualTo(1);
        } finally {
            senders.shutdownNow();
        }
    }

    @Test
    void noGuardRowReachesEitherDatabase() throws Exception {
        assertThat(sendTo(FIRST, header())).startsWith("HTTP/1.1 200");
        assertThat(sendTo(SECOND, header())).startsWith("HTTP/1.1 200");
        for (TestRelay relay : List.of(FIRST, SECOND)) {
            long rows = relay.jdbi()
                    .withHandle(h -> h.createQuery("SELECT count(*) FROM nip98_replay_guard")
                            .mapTo(Long.class)
                            .one());
            assertThat(rows).isZero();
        }
    }

    @Test
    void readinessAndTheHealthCheckSeeTheRedis() throws Exception {
        String ready = RawHttp.exchange(
                FIRST.baseUrl(), "GET /health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        assertThat(ready).startsWith("HTTP/1.1 200").endsWith("{\"status\":\"ready\"}");
        JsonNode checks = FIRST.admin().get("/healthcheck").json();
        assertThat(checks.path(RedisReplayGuardHealthCheck.NAME).path("healthy").asBoolean())
                .as(checks.toString())
                .isTrue();
    }

    private String header() {
        return Nip98.authorizationHeader(
                alice,
                "POST",
                FIRST.baseUrl() + "/query",
                QUERY.getBytes(StandardCharsets.UTF_8),
                System.currentTimeMillis() / 1000);
    }

    private static String eventIdOf(String header) {
        return Event.parse(new String(
                        Base64.getDecoder().decode(header.substring("Nostr ".length())), StandardCharsets.UTF_8))
                .id();
    }

    /** The header names the first instance's URL, so each instance is sent it with that Host. */
    private static String sendTo(TestRelay relay, String header) throws Exception {
        String host = FIRST.baseUrl().substring("http://".length());
        return RawHttp.exchange(
                relay.baseUrl(),
                "POST /query HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: " + header + "\r\nContent-Length: "
                        + QUERY.length() + "\r\nConnection: close\r\n\r\n" + QUERY);
    }
}
