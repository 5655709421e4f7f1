package chat.buzz.relay.auth;

import chat.buzz.relay.database.DatabaseOutage;
import chat.buzz.relay.web.DependencyUnavailable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Whether the replay guard's Redis is failing this instance, as {@link DatabaseOutage} does for the
 * database: one log line when an outage starts (one more per other kind of failure seen during it), one
 * when a call works again, with how long it lasted and how many signed requests were answered 503; never
 * a line per request.
 */
final class RedisOutage {
    private static final Logger LOG = LoggerFactory.getLogger(RedisReplayGuard.class);
    /** As the database's: calls in flight when Redis came back may still fail for a moment. */
    static final Duration QUIET = Duration.ofSeconds(2);
    /** After a failure the pool's idle connections are dropped (they may be to a server that is gone). */
    private static final Duration RECONNECT_AT_MOST_EVERY = Duration.ofSeconds(2);

    private final String server;
    private final Clock clock;
    private final Runnable reconnect;
    private final AtomicReference<Episode> current = new AtomicReference<>();
    private final AtomicReference<Instant> lastReconnect = new AtomicReference<>(Instant.EPOCH);

    private static final class Episode {
        final Instant since;
        final AtomicLong turnedAway = new AtomicLong();
        final Set<String> seen = ConcurrentHashMap.newKeySet();
        volatile Instant lastFailure;

        Episode(Instant since) {
            this.since = since;
            this.lastFailure = since;
        }
    }

    /** @param server where Redis is, without credentials, for the log */
    RedisOutage(String server, Clock clock, Runnable reconnect) {
        this.server = server;
        this.clock = clock;
        this.reconnect = reconnect;
    }

    /** A signed request could not be recorded: what its answer is (503 with a jittered Retry-After). */
    DependencyUnavailable turnedAway(RuntimeException cause) {
        episodeOf(cause).turnedAway.incrementAndGet();
        return new DependencyUnavailable("the replay guard's Redis is unavailable", DatabaseOutage.retryAfterSeconds());
    }

    /** A probe (readiness, health check) failed: an outage as well, but no request was turned away. */
    void probeFailed(RuntimeException cause) {
        episodeOf(cause);
    }

    private Episode episodeOf(RuntimeException cause) {
        Instant now = clock.instant();
        Episode episode = current.get();
        boolean first = false;
        while (episode == null) {
            Episode fresh = new Episode(now);
            if (current.compareAndSet(null, fresh)) {
                episode = fresh;
                first = true;
            } else {
                episode = current.get();
            }
        }
        episode.lastFailure = now;
        String kind = describe(cause);
        if (episode.seen.add(cause.getClass().getName())) {
            if (first) {
                LOG.warn(
                        "Replay guard's Redis at {} unavailable: {}; signed HTTP requests are answered 503 with "
                                + "Retry-After until it is back",
                        server,
                        kind);
            } else {
                LOG.warn("Replay guard's Redis at {} unavailable, also: {}", server, kind);
            }
        }
        Instant last = lastReconnect.get();
        if (Duration.between(last, now).compareTo(RECONNECT_AT_MOST_EVERY) >= 0
                && lastReconnect.compareAndSet(last, now)) {
            reconnect.run();
        }
        return episode;
    }

    /** A call went through: an outage with no failure for {@link #QUIET} is over. */
    void served() {
        Episode episode = current.get();
        if (episode == null) {
            return;
        }
        Instant now = clock.instant();
        if (Duration.between(episode.lastFailure, now).compareTo(QUIET) < 0) {
            return;
        }
        if (current.compareAndSet(episode, null)) {
            LOG.info(
                    "Replay guard's Redis at {} available again after {} s; {} signed requests were answered 503 "
                            + "meanwhile",
                    server,
                    Duration.between(episode.since, now).toSeconds(),
                    episode.turnedAway.get());
        }
    }

    /** What failed, in the operator's words, for the health check; the log has the client's own. */
    static String inWords(Throwable failure) {
        int depth = 0;
        for (Throwable cause = failure; cause != null && depth++ < 16; cause = cause.getCause()) {
            if (cause instanceof JedisConnectionException) {
                return "connections to it are refused, break or time out";
            }
            if (cause instanceof JedisDataException) {
                return "it refuses the write (a read-only replica, out of memory, or credentials it does not accept)";
            }
            if (cause instanceof NoSuchElementException) {
                return "no pooled connection came free within replayGuard.redisTimeout";
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return "its calls fail";
    }

    /** The exception's kind and the first line of its message: the client's words, for the log only. */
    static String describe(Throwable cause) {
        Throwable deepest = cause;
        int depth = 0;
        while (deepest.getCause() != null && deepest.getCause() != deepest && depth++ < 16) {
            deepest = deepest.getCause();
        }
        String outer = cause.getClass().getSimpleName() + ": "
                + String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
        if (deepest == cause) {
            return outer;
        }
        return outer + " (" + deepest.getClass().getSimpleName() + ": "
                + String.valueOf(deepest.getMessage()).lines().findFirst().orElse("") + ")";
    }
}
