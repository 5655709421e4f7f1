package chat.buzz.relay.auth;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/**
 * The {@code replayGuard:} section: where the NIP-98 replay guard (PROTOCOL 2.1 step 6) records auth event
 * ids. {@code postgresql}, the default, keeps them in the relay's database as before; {@code redis} in the
 * Redis at {@link #redisUrl}, which every instance of the deployment must share (docs/decisions.md, "HTTP").
 */
@ValidReplayGuard
public class ReplayGuardConfig {
    public static final String POSTGRESQL = "postgresql";
    public static final String REDIS = "redis";

    @NotNull
    private String store = POSTGRESQL;

    /** Only with store redis; see {@link RedisUrl#FORM}. */
    private String redisUrl = "";

    /**
     * Keys are this prefix and the auth event id; another prefix keeps two deployments (or two test runs)
     * sharing one Redis apart.
     */
    @NotBlank
    private String redisKeyPrefix = "buzz:nip98:";

    /**
     * Connect, read and pool-wait timeout of each call. The guard's SET takes well under a millisecond; a
     * short limit keeps request threads from piling up behind a Redis that stopped answering.
     */
    @NotNull
    @MinDuration(value = 10, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 10, unit = TimeUnit.SECONDS)
    private Duration redisTimeout = Duration.milliseconds(250);

    /** Connections one instance keeps to Redis at most; each SET holds one for one round trip. */
    @Min(1)
    @Max(1024)
    private int redisMaxConnections = 16;

    public boolean isRedis() {
        return REDIS.equals(store);
    }

    @JsonProperty
    public String getStore() {
        return store;
    }

    @JsonProperty
    public void setStore(String store) {
        this.store = store == null ? POSTGRESQL : store.trim();
    }

    @JsonProperty
    public String getRedisUrl() {
        return redisUrl;
    }

    @JsonProperty
    public void setRedisUrl(String redisUrl) {
        this.redisUrl = redisUrl == null ? "" : redisUrl.trim();
    }

    @JsonProperty
    public String getRedisKeyPrefix() {
        return redisKeyPrefix;
    }

    @JsonProperty
    public void setRedisKeyPrefix(String redisKeyPrefix) {
        this.redisKeyPrefix = redisKeyPrefix;
    }

    @JsonProperty
    public Duration getRedisTimeout() {
        return redisTimeout;
    }

    @JsonProperty
    public void setRedisTimeout(Duration redisTimeout) {
        this.redisTimeout = redisTimeout;
    }

    @JsonProperty
    public int getRedisMaxConnections() {
        return redisMaxConnections;
    }

    @JsonProperty
    public void setRedisMaxConnections(int redisMaxConnections) {
        this.redisMaxConnections = redisMaxConnections;
    }
}
