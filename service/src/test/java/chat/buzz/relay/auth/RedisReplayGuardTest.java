package chat.buzz.relay.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRedis;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** The Redis replay guard against the real, shared Redis, under a key prefix of this class's own. */
@IntegrationTest
class RedisReplayGuardTest {
    private static final Duration WINDOW = Duration.ofSeconds(120);
    private static final String PREFIX = TestRedis.freshPrefix();
    private static RedisReplayGuard guard;
    private static Jedis redis;

    @BeforeAll
    static void connect() {
        ReplayGuardConfig config = new ReplayGuardConfig();
        config.setStore(ReplayGuardConfig.REDIS);
        config.setRedisUrl(TestRedis.url());
        config.setRedisKeyPrefix(PREFIX);
        guard = new RedisReplayGuard(config, Clock.systemUTC());
        redis = TestRedis.connect();
    }

    @AfterAll
    static void close() {
        guard.close();
        redis.close();
    }

    @Test
    void anIdIsAFirstUseOnceAndThenNeverWithinItsWindow() {
        String id = eventId();
        long now = System.currentTimeMillis() / 1000;
        assertThat(guard.firstUse(id, now, WINDOW)).isTrue();
        assertThat(guard.firstUse(id, now, WINDOW)).isFalse();
        assertThat(guard.firstUse(id, now + 30, WINDOW))
                .as("a later created_at does not reopen it")
                .isFalse();
        assertThat(redis.exists(PREFIX + id))
                .as("the key is the prefix and the event id")
                .isTrue();
    }

    @Test
    void theKeyLivesUntilCreatedAtPlusTheWindowAndTheMargin() {
        String id = eventId();
        long createdAt = System.currentTimeMillis() / 1000 - 50;
        long keepUntilMillis = (createdAt + WINDOW.toSeconds() + ReplayGuard.MARGIN.toSeconds()) * 1000;
        long before = System.currentTimeMillis();
        assertThat(guard.firstUse(id, createdAt, WINDOW)).isTrue();
        long timeToLive = redis.pttl(PREFIX + id);
        long after = System.currentTimeMillis();
        // Counted from created_at, not from the moment of the SET: 80 s here, not the window's 130.
        assertThat(timeToLive)
                .isLessThanOrEqualTo(keepUntilMillis - before)
                .isGreaterThan(keepUntilMillis - after - 1000);
    }

    @Test
    void anIdIsAFirstUseAgainOnceItsWindowHasPassed() {
        String id = eventId();
        // Dated so that created_at + window + margin is a second from now.
        long createdAt = System.currentTimeMillis() / 1000 - ReplayGuard.MARGIN.toSeconds();
        Duration window = Duration.ofSeconds(1);
        assertThat(guard.firstUse(id, createdAt, window)).isTrue();
        assertThat(guard.firstUse(id, createdAt, window)).isFalse();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !redis.exists(PREFIX + id));
        assertThat(guard.firstUse(id, createdAt, window)).isTrue();
    }

    @Test
    void ofManyConcurrentUsesOfOneIdExactlyOneIsTheFirst() throws Exception {
        String id = eventId();
        long now = System.currentTimeMillis() / 1000;
        int callers = 16;
        CountDownLatch ready = new CountDownLatch(callers);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(callers);
        try {
            List<Future<Boolean>> uses = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                uses.add(threads.submit(() -> {
                    ready.countDown();
                    go.await();
                    return guard.firstUse(id, now, WINDOW);
                }));
            }
            ready.await();
            go.countDown();
            int first = 0;
            for (Future<Boolean> use : uses) {
                first += use.get() ? 1 : 0;
            }
            assertThat(first).isEqualTo(1);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void theProbeWritesAndReadinessAsksIt() {
        assertThat(guard.probe()).isEmpty();
        assertThat(guard.recordsNow()).isTrue();
        assertThat(redis.exists(PREFIX + RedisReplayGuard.PROBE_KEY)).isTrue();
    }

    private static String eventId() {
        byte[] bytes = new byte[32];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
