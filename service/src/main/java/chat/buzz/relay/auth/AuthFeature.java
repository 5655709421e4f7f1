package chat.buzz.relay.auth;

import chat.buzz.protocol.Nip98Verifier;
import chat.buzz.protocol.SchnorrVerifiers;
import chat.buzz.relay.database.BackgroundFailures;
import chat.buzz.relay.identity.RelayConfig;
import io.dropwizard.auth.AuthValueFactoryProvider;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** NIP-98 on every authenticated resource, with a replay guard shared by all instances. */
public final class AuthFeature {
    private static final Logger LOG = LoggerFactory.getLogger(AuthFeature.class);

    private AuthFeature() {}

    /** @return the replay guard, whose {@link ReplayGuard#recordsNow} readiness asks */
    public static ReplayGuard register(
            Environment environment, RelayConfig relay, ReplayGuardConfig guard, Jdbi jdbi, Clock clock) {
        // Chosen here, at start, rather than by the first signed request.
        LOG.info("BIP-340 signature checks: {}", SchnorrVerifiers.choice());
        ReplayGuard replayGuard = guard.isRedis() ? redis(environment, guard, clock) : new PostgresReplayGuard(jdbi);
        Nip98Verifier verifier = new Nip98Verifier(clock);
        RequestBodies bodies = new RequestBodies(relay.getMaxBodyBytes());
        Duration window = Duration.ofSeconds(relay.getReplayWindowSeconds());
        GuardVerdicts verdicts = new GuardVerdicts(environment.metrics());
        environment
                .jersey()
                .register(new SignedRoutes(
                        new Nip98AuthFilter(
                                verifier, replayGuard, bodies, relay.getPublicScheme(), window, verdicts, false),
                        new Nip98AuthFilter(
                                verifier, replayGuard, bodies, relay.getPublicScheme(), window, verdicts, true)));
        environment.jersey().register(new AuthValueFactoryProvider.Binder<>(Caller.class));
        if (replayGuard instanceof PostgresReplayGuard) {
            // Redis expires its keys itself.
            purgePeriodically(environment, replayGuard);
        }
        return replayGuard;
    }

    /**
     * The start does not wait for Redis: an instance that cannot reach it starts not ready and answers
     * signed requests 503 until it can, as with the database.
     */
    private static RedisReplayGuard redis(Environment environment, ReplayGuardConfig config, Clock clock) {
        RedisReplayGuard guard = new RedisReplayGuard(config, clock);
        LOG.info("NIP-98 replay guard: {}", guard.describe());
        environment.lifecycle().manage(new Managed() {
            @Override
            public void stop() {
                guard.close();
            }
        });
        environment.healthChecks().register(RedisReplayGuardHealthCheck.NAME, new RedisReplayGuardHealthCheck(guard));
        return guard;
    }

    private static void purgePeriodically(Environment environment, ReplayGuard replayGuard) {
        ScheduledExecutorService purger = environment
                .lifecycle()
                .scheduledExecutorService("replay-guard-purge")
                .threads(1)
                .build();
        BackgroundFailures failures = new BackgroundFailures(LOG, "Replay guard purge failed; will retry");
        purger.scheduleWithFixedDelay(
                () -> {
                    try {
                        replayGuard.purgeExpired();
                        failures.succeeded();
                    } catch (RuntimeException e) {
                        failures.failed(e);
                    }
                },
                1,
                1,
                TimeUnit.MINUTES);
    }
}
