package chat.buzz.relay;

import chat.buzz.relay.admin.AdminConfig;
import chat.buzz.relay.auth.ReplayGuardConfig;
import chat.buzz.relay.channel.PolicyChangeLimitConfig;
import chat.buzz.relay.community.CommunityConfig;
import chat.buzz.relay.database.Database;
import chat.buzz.relay.database.DatabaseSettings;
import chat.buzz.relay.database.EmbeddedDatabaseConfig;
import chat.buzz.relay.gate.GatesConfig;
import chat.buzz.relay.identity.RelayConfig;
import chat.buzz.relay.incremental.IncrementalConfig;
import chat.buzz.relay.query.CurrentConfig;
import chat.buzz.relay.sync.SyncConfig;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Configuration;
import io.dropwizard.util.Duration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.util.List;

public class BuzzRelayConfiguration extends Configuration {

    @Valid
    @NotNull
    private DatabaseSettings database = new DatabaseSettings();

    @Valid
    @NotNull
    private EmbeddedDatabaseConfig embeddedDatabase = new EmbeddedDatabaseConfig();

    private boolean autoMigrate;

    /**
     * How long a stopping instance reports not ready while it keeps serving, before it tells WebSocket
     * clients to go and stops accepting ({@link chat.buzz.relay.health.Drain}); 0 stops at once.
     */
    @NotNull
    private Duration drainPeriod = Duration.seconds(0);

    /** This instance's name in the fleet view; BUZZ_INSTANCE_NAME wins. Unset: host and HTTP port. */
    private String instanceName;

    /** The Liquibase changelog on the classpath: what autoMigrate runs and what the console compares against. */
    @NotEmpty
    private String changelog = Database.CHANGELOG;

    @Valid
    @NotNull
    private RelayConfig relay = new RelayConfig();

    /** Where the NIP-98 replay guard records auth event ids: PostgreSQL unless Redis is chosen. */
    @Valid
    @NotNull
    private ReplayGuardConfig replayGuard = new ReplayGuardConfig();

    @Valid
    @NotEmpty
    private List<CommunityConfig> communities = List.of();

    @Valid
    @NotNull
    private GatesConfig gates = new GatesConfig();

    @Valid
    @NotNull
    private IncrementalConfig incremental = new IncrementalConfig();

    @Valid
    @NotNull
    private CurrentConfig current = new CurrentConfig();

    private AdminConfig admin = new AdminConfig();

    @Valid
    @NotNull
    private PolicyChangeLimitConfig policyChangeLimit = new PolicyChangeLimitConfig();

    @JsonProperty
    public String getInstanceName() {
        return instanceName;
    }

    @JsonProperty
    public void setInstanceName(String instanceName) {
        this.instanceName = instanceName;
    }

    @JsonProperty
    public ReplayGuardConfig getReplayGuard() {
        return replayGuard;
    }

    @JsonProperty
    public void setReplayGuard(ReplayGuardConfig replayGuard) {
        this.replayGuard = replayGuard;
    }

    @JsonProperty
    public PolicyChangeLimitConfig getPolicyChangeLimit() {
        return policyChangeLimit;
    }

    @JsonProperty
    public void setPolicyChangeLimit(PolicyChangeLimitConfig policyChangeLimit) {
        this.policyChangeLimit = policyChangeLimit;
    }

    @JsonProperty
    public AdminConfig getAdmin() {
        return admin;
    }

    @JsonProperty
    public void setAdmin(AdminConfig admin) {
        this.admin = admin;
    }

    @Valid
    @NotNull
    private SyncConfig sync = new SyncConfig();

    @JsonProperty
    public SyncConfig getSync() {
        return sync;
    }

    @JsonProperty
    public void setSync(SyncConfig sync) {
        this.sync = sync;
    }

    @JsonProperty("database")
    public DatabaseSettings getDataSourceFactory() {
        return database;
    }

    @JsonProperty("database")
    public void setDataSourceFactory(DatabaseSettings database) {
        this.database = database;
    }

    @JsonProperty
    public EmbeddedDatabaseConfig getEmbeddedDatabase() {
        return embeddedDatabase;
    }

    @JsonProperty
    public void setEmbeddedDatabase(EmbeddedDatabaseConfig embeddedDatabase) {
        this.embeddedDatabase = embeddedDatabase;
    }

    @JsonProperty
    public String getChangelog() {
        return changelog;
    }

    @JsonProperty
    public void setChangelog(String changelog) {
        this.changelog = changelog;
    }

    @JsonProperty
    public Duration getDrainPeriod() {
        return drainPeriod;
    }

    @JsonProperty
    public void setDrainPeriod(Duration drainPeriod) {
        this.drainPeriod = drainPeriod;
    }

    @JsonProperty
    public boolean isAutoMigrate() {
        return autoMigrate;
    }

    @JsonProperty
    public void setAutoMigrate(boolean autoMigrate) {
        this.autoMigrate = autoMigrate;
    }

    @JsonProperty
    public RelayConfig getRelay() {
        return relay;
    }

    @JsonProperty
    public void setRelay(RelayConfig relay) {
        this.relay = relay;
    }

    @JsonProperty
    public GatesConfig getGates() {
        return gates;
    }

    @JsonProperty
    public void setGates(GatesConfig gates) {
        this.gates = gates;
    }

    @JsonProperty
    public IncrementalConfig getIncremental() {
        return incremental;
    }

    @JsonProperty
    public void setIncremental(IncrementalConfig incremental) {
        this.incremental = incremental;
    }

    @JsonProperty
    public CurrentConfig getCurrent() {
        return current;
    }

    @JsonProperty
    public void setCurrent(CurrentConfig current) {
        this.current = current;
    }

    @JsonProperty
    public List<CommunityConfig> getCommunities() {
        return communities;
    }

    @JsonProperty
    public void setCommunities(List<CommunityConfig> communities) {
        this.communities = List.copyOf(communities);
    }
}
