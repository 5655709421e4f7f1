package chat.buzz.relay.auth;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Optional;

/**
 * The store and its URL checked together, so a start with a wrong one stops with one line naming the
 * setting, its variable and what is wrong (Dropwizard prints each violation as {@code path message}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = ValidReplayGuard.Check.class)
public @interface ValidReplayGuard {
    String message() default "is not a usable replay guard setting";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Check implements ConstraintValidator<ValidReplayGuard, ReplayGuardConfig> {
        @Override
        public boolean isValid(ReplayGuardConfig config, ConstraintValidatorContext context) {
            Optional<Problem> problem = problem(config);
            if (problem.isEmpty()) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(problem.get().text())
                    .addPropertyNode(problem.get().setting())
                    .addConstraintViolation();
            return false;
        }

        /** The setting at fault and what to say about it; texts hold no braces or dollars (they are templates). */
        record Problem(String setting, String text) {}

        static Optional<Problem> problem(ReplayGuardConfig config) {
            String store = config.getStore();
            if (!ReplayGuardConfig.POSTGRESQL.equals(store) && !ReplayGuardConfig.REDIS.equals(store)) {
                return Optional.of(new Problem("store", "must be postgresql or redis (BUZZ_REPLAY_GUARD)"));
            }
            String url = config.getRedisUrl();
            if (!config.isRedis()) {
                return url.isEmpty()
                        ? Optional.empty()
                        : Optional.of(new Problem(
                                "redisUrl",
                                "is set but replayGuard.store is postgresql: set BUZZ_REPLAY_GUARD=redis to use it, or "
                                        + "unset BUZZ_REPLAY_GUARD_REDIS_URL"));
            }
            return RedisUrl.problem(url)
                    .map(why -> new Problem(
                            "redisUrl",
                            "is not a usable Redis URL (" + why + "); expected " + RedisUrl.FORM
                                    + " (BUZZ_REPLAY_GUARD_REDIS_URL)"));
        }
    }
}
