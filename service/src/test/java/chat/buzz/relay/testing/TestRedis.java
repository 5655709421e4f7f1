package chat.buzz.relay.testing;

import java.net.URI;
import java.util.Map;
import java.util.UUID;
import redis.clients.jedis.Jedis;

/**
 * The Redis the tests share (127.0.0.1:6379, database 0, unless {@value #URL_VARIABLE} names another; CI's
 * `.ci/run` starts one). Tests never flush or stop it: each test class writes under a key prefix of its
 * own, so parallel runs on one machine cannot see each other's keys. Tests that stop Redis start their
 * own ({@link RedisServer}).
 */
public final class TestRedis {
    static final String URL_VARIABLE = "BUZZ_TEST_REDIS_URL";

    private TestRedis() {}

    public static String url() {
        return url(System.getenv());
    }

    static String url(Map<String, String> environment) {
        String configured = environment.get(URL_VARIABLE);
        return configured == null || configured.isBlank() ? "redis://127.0.0.1:6379/0" : configured.trim();
    }

    /** A key prefix no other test class, and no other run, uses. */
    public static String freshPrefix() {
        return "buzz-test:" + UUID.randomUUID() + ":nip98:";
    }

    /** A plain connection to look at keys with; the caller closes it. */
    public static Jedis connect() {
        return new Jedis(URI.create(url()));
    }
}
