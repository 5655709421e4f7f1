package chat.buzz.relay.auth;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.relay.BuzzRelayConfiguration;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.ConfigurationValidationException;
import io.dropwizard.configuration.FileConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.text.StringSubstitutor;
import org.junit.jupiter.api.Test;

/**
 * config/production.yml read as the relay reads it at start, with the environment of the test: a wrong
 * replay guard setting stops the start with one line naming the setting, its variable and what is wrong.
 */
class ReplayGuardConfigTest {
    private static final String PRODUCTION = "../config/production.yml";
    private static final String LOCAL = "../config/local.yml";
    /** What production.yml needs besides the replay guard. */
    private static final Map<String, String> BASE = Map.of(
            "BUZZ_DATABASE_URL",
            "jdbc:postgresql://127.0.0.1:5432/buzz",
            "BUZZ_RELAY_SECRET_KEY",
            "a".repeat(63) + "7");

    @Test
    void withoutTheVariablesTheGuardStaysInPostgresql() throws Exception {
        ReplayGuardConfig guard = load(Map.of()).getReplayGuard();
        assertThat(guard.isRedis()).isFalse();
        assertThat(guard.getStore()).isEqualTo("postgresql");
    }

    @Test
    void redisWithAUsableUrlIsRead() throws Exception {
        ReplayGuardConfig guard = load(Map.of(
                        "BUZZ_REPLAY_GUARD", "redis", "BUZZ_REPLAY_GUARD_REDIS_URL", "redis://10.0.0.5:6379/2"))
                .getReplayGuard();
        assertThat(guard.isRedis()).isTrue();
        assertThat(RedisUrl.parse(guard.getRedisUrl())).isEqualTo(new RedisUrl(false, "10.0.0.5", 6379, 2, null, null));
        assertThat(guard.getRedisKeyPrefix()).isEqualTo("buzz:nip98:");
    }

    @Test
    void localModeReadsTheSameVariables() throws Exception {
        // bench/read-cost.sh runs a local-mode relay with the guard in Redis through them.
        ReplayGuardConfig guard = load(
                        LOCAL,
                        Map.of("BUZZ_REPLAY_GUARD", "redis", "BUZZ_REPLAY_GUARD_REDIS_URL", "redis://127.0.0.1:6379/0"))
                .getReplayGuard();
        assertThat(guard.isRedis()).isTrue();
        assertThat(load(LOCAL, Map.of()).getReplayGuard().isRedis()).isFalse();
    }

    @Test
    void aBadUrlStopsTheStartWithOneLine() {
        assertThat(errorLines(Map.of("BUZZ_REPLAY_GUARD", "redis", "BUZZ_REPLAY_GUARD_REDIS_URL", "redis//cache:6379")))
                .containsExactly("  * replayGuard.redisUrl is not a usable Redis URL (it must start with redis:// or "
                        + "rediss://); expected " + RedisUrl.FORM + " (BUZZ_REPLAY_GUARD_REDIS_URL)");
    }

    @Test
    void redisWithoutAUrlIsNamed() {
        assertThat(errorLines(Map.of("BUZZ_REPLAY_GUARD", "redis")))
                .containsExactly("  * replayGuard.redisUrl is not a usable Redis URL (it is empty); expected "
                        + RedisUrl.FORM + " (BUZZ_REPLAY_GUARD_REDIS_URL)");
    }

    @Test
    void aUrlWithoutChoosingRedisIsNotSilentlyIgnored() {
        assertThat(errorLines(Map.of("BUZZ_REPLAY_GUARD_REDIS_URL", "redis://127.0.0.1:6379/0")))
                .containsExactly("  * replayGuard.redisUrl is set but replayGuard.store is postgresql: set "
                        + "BUZZ_REPLAY_GUARD=redis to use it, or unset BUZZ_REPLAY_GUARD_REDIS_URL");
    }

    @Test
    void anUnknownStoreIsNamed() {
        assertThat(errorLines(Map.of("BUZZ_REPLAY_GUARD", "memcached")))
                .containsExactly("  * replayGuard.store must be postgresql or redis (BUZZ_REPLAY_GUARD)");
    }

    @Test
    void thePasswordOfABadUrlIsNotRepeated() {
        assertThat(String.join(
                        "\n",
                        errorLines(Map.of(
                                "BUZZ_REPLAY_GUARD", "redis",
                                "BUZZ_REPLAY_GUARD_REDIS_URL", "redis://relay:hunter2-secret@cache:notaport/0"))))
                .contains("its port is not a number")
                .doesNotContain("hunter2");
    }

    /** The lines of the validation error below its first ("... has an error:"). */
    private static List<String> errorLines(Map<String, String> environment) {
        ConfigurationValidationException error = refusal(environment);
        List<String> lines = error.getMessage().lines().toList();
        assertThat(lines.get(0)).endsWith("has an error:");
        return lines.subList(1, lines.size()).stream()
                .filter(line -> !line.isBlank())
                .toList();
    }

    private static ConfigurationValidationException refusal(Map<String, String> environment) {
        try {
            load(environment);
        } catch (ConfigurationValidationException e) {
            return e;
        } catch (Exception e) {
            throw new AssertionError("expected a validation error, got " + e, e);
        }
        throw new AssertionError("the configuration was accepted");
    }

    private static BuzzRelayConfiguration load(Map<String, String> environment) throws Exception {
        return load(PRODUCTION, environment);
    }

    private static BuzzRelayConfiguration load(String file, Map<String, String> environment) throws Exception {
        Map<String, String> variables = new HashMap<>(BASE);
        variables.putAll(environment);
        // As the relay's EnvironmentVariableSubstitutor(false), with this map for the environment.
        StringSubstitutor substitutor = new StringSubstitutor(variables);
        substitutor.setEnableSubstitutionInVariables(true);
        ObjectMapper json = Jackson.newObjectMapper();
        return new YamlConfigurationFactory<>(BuzzRelayConfiguration.class, Validators.newValidator(), json, "dw")
                .build(new SubstitutingSourceProvider(new FileConfigurationSourceProvider(), substitutor), file);
    }
}
