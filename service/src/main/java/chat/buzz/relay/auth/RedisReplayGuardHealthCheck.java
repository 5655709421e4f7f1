package chat.buzz.relay.auth;

import com.codahale.metrics.health.HealthCheck;
import java.util.Optional;

/**
 * The replay guard's Redis on the operator's /healthcheck: unhealthy while a write does not go through,
 * because until it does every signed HTTP request of this instance is answered 503. The failure is told
 * in words, as the database's check does; the client library's exception is in the log.
 */
public final class RedisReplayGuardHealthCheck extends HealthCheck {
    public static final String NAME = "replay-guard";

    private final RedisReplayGuard guard;

    public RedisReplayGuardHealthCheck(RedisReplayGuard guard) {
        this.guard = guard;
    }

    @Override
    protected Result check() {
        Optional<String> failure = guard.probe();
        if (failure.isEmpty()) {
            return Result.healthy("the replay guard records auth event ids in " + guard.describe());
        }
        return Result.unhealthy("the replay guard cannot record auth event ids in " + guard.describe() + ": "
                + failure.get() + "; signed HTTP requests are answered 503 until it can, and the relay's log has "
                + "the cause");
    }
}
