package chat.buzz.relay.database;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.db.DataSourceFactory;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/**
 * The {@code database} block: Dropwizard's settings of the primary, and the hot standbys that may serve
 * reads (docs/scaling.md). With no replica, which is the default, every read goes to the primary.
 */
public class DatabaseSettings extends DataSourceFactory {
    /** JDBC (or postgres://) URLs of streaming standbys of the primary; BUZZ_DATABASE_REPLICA_URLS in production. */
    @NotNull
    private List<String> replicas = List.of();

    /** A standby further behind the primary than this serves nothing until it catches up. */
    @NotNull
    private Duration replicaMaxLag = Duration.seconds(30);

    /** Connections of each standby's own pool. */
    @Min(1)
    @Max(1024)
    private int replicaMaxSize = 8;

    @JsonProperty
    public List<String> getReplicas() {
        return replicas;
    }

    @JsonProperty
    public void setReplicas(List<String> replicas) {
        // An unset BUZZ_DATABASE_REPLICA_URLS leaves one empty entry in "[${...:-}]": no replica.
        this.replicas = replicas == null
                ? List.of()
                : replicas.stream()
                        .filter(url -> url != null && !url.isBlank())
                        .map(String::trim)
                        .toList();
    }

    @JsonProperty
    public Duration getReplicaMaxLag() {
        return replicaMaxLag;
    }

    @JsonProperty
    public void setReplicaMaxLag(Duration replicaMaxLag) {
        this.replicaMaxLag = replicaMaxLag;
    }

    @JsonProperty
    public int getReplicaMaxSize() {
        return replicaMaxSize;
    }

    @JsonProperty
    public void setReplicaMaxSize(int replicaMaxSize) {
        this.replicaMaxSize = replicaMaxSize;
    }
}
