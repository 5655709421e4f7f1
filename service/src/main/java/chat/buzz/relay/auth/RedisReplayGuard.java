package chat.buzz.relay.auth;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.SetParams;

/**
 * The replay guard in Redis: one {@code SET <prefix><event id> 1 NX PX <ms>} per signed request, so a
 * signed read writes nothing to PostgreSQL. Redis settles the first use ({@code NX} on one key is atomic),
 * every instance that shares the Redis shares the decision, and the key expires by itself, so there is
 * nothing to purge. Fails closed: when the SET does not answer, the request is turned away (503), never
 * served unrecorded.
 */
public final class RedisReplayGuard implements ReplayGuard, AutoCloseable {
    /** The key readiness and the health check write: no auth event id (64 hex digits) looks like it. */
    static final String PROBE_KEY = "probe";

    /** How long one probe's answer stands before the next look, as readiness does for the database. */
    private static final Duration PROBE_REFRESH = Duration.ofSeconds(1);

    private final JedisPool pool;
    private final RedisUrl url;
    private final String keyPrefix;
    private final Clock clock;
    private final RedisOutage outage;
    private final AtomicBoolean probing = new AtomicBoolean();
    private volatile Probe lastProbe;

    private record Probe(Optional<String> failure, long atNanos) {}

    public RedisReplayGuard(ReplayGuardConfig config, Clock clock) {
        this.url = RedisUrl.parse(config.getRedisUrl());
        this.keyPrefix = config.getRedisKeyPrefix();
        this.clock = clock;
        int timeoutMillis = (int) config.getRedisTimeout().toMilliseconds();
        this.pool = new JedisPool(
                poolConfig(config, timeoutMillis),
                new HostAndPort(url.host(), url.port()),
                clientConfig(timeoutMillis));
        this.outage = new RedisOutage(url.describe(), clock, pool::clear);
    }

    private static GenericObjectPoolConfig<Jedis> poolConfig(ReplayGuardConfig config, int timeoutMillis) {
        GenericObjectPoolConfig<Jedis> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(config.getRedisMaxConnections());
        pool.setMaxIdle(config.getRedisMaxConnections());
        pool.setMinIdle(0);
        // A request that finds every connection busy waits no longer than a call may take, then is a 503.
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(Duration.ofMillis(timeoutMillis));
        // No PING per borrow (it would double the round trips); a broken connection fails its call, is
        // dropped, and the outage clears the idle ones (RedisOutage).
        pool.setTestOnBorrow(false);
        pool.setJmxEnabled(false);
        return pool;
    }

    private DefaultJedisClientConfig clientConfig(int timeoutMillis) {
        return DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(timeoutMillis)
                .socketTimeoutMillis(timeoutMillis)
                .database(url.database())
                .user(url.user())
                .password(url.password())
                .ssl(url.tls())
                .clientName("buzz-relay")
                .build();
    }

    /**
     * Kept until created_at + window + {@link ReplayGuard#MARGIN}, as in PostgreSQL. Redis takes a time to
     * live, so it is counted from this relay's clock, the clock the NIP-98 time check also reads.
     */
    @Override
    public boolean firstUse(String authEventId, long createdAtSeconds, Duration window) {
        long keepUntilMillis = createdAtSeconds * 1000 + window.plus(MARGIN).toMillis();
        // An event that passed the time check has well over the margin left; never hand Redis less.
        long timeToLiveMillis = Math.max(MARGIN.toMillis(), keepUntilMillis - clock.millis());
        String reply;
        try (Jedis jedis = pool.getResource()) {
            reply = jedis.set(
                    keyPrefix + authEventId, "1", SetParams.setParams().nx().px(timeToLiveMillis));
        } catch (JedisException e) {
            throw outage.turnedAway(e);
        }
        outage.served();
        // "OK": the key was not there and is now; null: NX found it. Anything else is not a first use.
        return "OK".equals(reply);
    }

    /** Redis expires each key itself. */
    @Override
    public int purgeExpired() {
        return 0;
    }

    /** Whether a write goes through now, looked at no more than once a second: for readiness. */
    @Override
    public boolean recordsNow() {
        Probe last = lastProbe;
        if (last != null && System.nanoTime() - last.atNanos() < PROBE_REFRESH.toNanos()) {
            return last.failure().isEmpty();
        }
        if (!probing.compareAndSet(false, true)) {
            // Another probe is looking; a flood of readiness probes waits for none of it.
            return last != null && last.failure().isEmpty();
        }
        try {
            return probe().isEmpty();
        } finally {
            probing.set(false);
        }
    }

    /**
     * Writes the probe key as the guard writes its keys (so a read-only replica, a full memory or a wrong
     * password all fail it); empty when it went through, else what failed, in words. The answer stands for
     * readiness for the next second.
     */
    Optional<String> probe() {
        Optional<String> failure = Optional.empty();
        try (Jedis jedis = pool.getResource()) {
            jedis.set(keyPrefix + PROBE_KEY, "1", SetParams.setParams().px(MARGIN.toMillis()));
        } catch (JedisException e) {
            outage.probeFailed(e);
            failure = Optional.of(RedisOutage.inWords(e));
        }
        if (failure.isEmpty()) {
            outage.served();
        }
        lastProbe = new Probe(failure, System.nanoTime());
        return failure;
    }

    /** Where the keys go, for the log: server, database and key prefix, never the password. */
    public String describe() {
        return "Redis at " + url.describe() + ", keys " + keyPrefix + "<auth event id>";
    }

    @Override
    public void close() {
        pool.close();
    }
}
