package chat.buzz.relay.sync;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/** Limits of WebSocket sync (the {@code sync:} section). Every limit is per relay instance. */
public class SyncConfig {
    @Min(1)
    @Max(1000)
    private int maxSubscriptionsPerConnection = 10;

    @Min(1)
    @Max(10_000)
    private int maxConnectionsPerPubkey = 8;

    /** Largest client frame; an AUTH event or a REQ is far smaller than this. */
    @Min(1024)
    @Max(16 * 1024 * 1024)
    private int maxMessageBytes = 64 * 1024;

    /** Frames waiting to be written to one connection. */
    @Min(2)
    @Max(100_000)
    private int queueFrames = 256;

    /** Characters waiting to be written to one connection, whatever the frame count. */
    @Min(1024)
    @Max(256 * 1024 * 1024)
    private int queueBytes = 4 * 1024 * 1024;

    /** Rows per snapshot query; the snapshot is read in keyset chunks of this size. */
    @Min(1)
    @Max(10_000)
    private int snapshotChunk = 200;

    /** A snapshot not finished this long after its REQ ends with {@code CLOSED error:}, however far it got. */
    @Min(1)
    @Max(86_400)
    private int snapshotTimeoutSeconds = 300;

    /** statement_timeout of every sync query, as for incremental reads. */
    @Min(10)
    @Max(600_000)
    private long statementBudgetMillis = 2000;

    @Min(1)
    @Max(3600)
    private int pingIntervalSeconds = 20;

    /** A connection with no frame (message or pong) from the client for this long is closed. */
    @Min(2)
    @Max(86_400)
    private int idleTimeoutSeconds = 60;

    /** Changes waiting to be checked for one subscription; beyond this the client is told to resubscribe. */
    @Min(1)
    @Max(1_000_000)
    private int pendingChanges = 10_000;

    /** Threads that stream snapshots and check live changes for this instance's subscriptions. */
    @Min(1)
    @Max(256)
    private int workerThreads = 8;

    /** Workers one pubkey's subscriptions may use at once (at most {@code workerThreads}). */
    @Min(1)
    @Max(256)
    private int workersPerPubkey = 2;

    /** Connections from one IP address that have not authenticated yet; further ones are refused. */
    @Min(1)
    @Max(100_000)
    private int maxUnauthenticatedPerAddress = 16;

    /** Connections of this instance that have not authenticated yet, from all addresses together. */
    @Min(1)
    @Max(1_000_000)
    private int maxUnauthenticatedConnections = 1000;

    /** A connection without a successful AUTH this long after it opened gets a NOTICE and is closed. */
    @Min(1)
    @Max(3600)
    private int authTimeoutSeconds = 30;

    @JsonProperty
    public int getMaxSubscriptionsPerConnection() {
        return maxSubscriptionsPerConnection;
    }

    @JsonProperty
    public void setMaxSubscriptionsPerConnection(int v) {
        this.maxSubscriptionsPerConnection = v;
    }

    @JsonProperty
    public int getMaxConnectionsPerPubkey() {
        return maxConnectionsPerPubkey;
    }

    @JsonProperty
    public void setMaxConnectionsPerPubkey(int v) {
        this.maxConnectionsPerPubkey = v;
    }

    @JsonProperty
    public int getMaxMessageBytes() {
        return maxMessageBytes;
    }

    @JsonProperty
    public void setMaxMessageBytes(int v) {
        this.maxMessageBytes = v;
    }

    @JsonProperty
    public int getQueueFrames() {
        return queueFrames;
    }

    @JsonProperty
    public void setQueueFrames(int v) {
        this.queueFrames = v;
    }

    @JsonProperty
    public int getQueueBytes() {
        return queueBytes;
    }

    @JsonProperty
    public void setQueueBytes(int v) {
        this.queueBytes = v;
    }

    @JsonProperty
    public int getSnapshotChunk() {
        return snapshotChunk;
    }

    @JsonProperty
    public void setSnapshotChunk(int v) {
        this.snapshotChunk = v;
    }

    @JsonProperty
    public int getSnapshotTimeoutSeconds() {
        return snapshotTimeoutSeconds;
    }

    @JsonProperty
    public void setSnapshotTimeoutSeconds(int v) {
        this.snapshotTimeoutSeconds = v;
    }

    @JsonProperty
    public long getStatementBudgetMillis() {
        return statementBudgetMillis;
    }

    @JsonProperty
    public void setStatementBudgetMillis(long v) {
        this.statementBudgetMillis = v;
    }

    @JsonProperty
    public int getPingIntervalSeconds() {
        return pingIntervalSeconds;
    }

    @JsonProperty
    public void setPingIntervalSeconds(int v) {
        this.pingIntervalSeconds = v;
    }

    @JsonProperty
    public int getIdleTimeoutSeconds() {
        return idleTimeoutSeconds;
    }

    @JsonProperty
    public void setIdleTimeoutSeconds(int v) {
        this.idleTimeoutSeconds = v;
    }

    @JsonProperty
    public int getPendingChanges() {
        return pendingChanges;
    }

    @JsonProperty
    public void setPendingChanges(int v) {
        this.pendingChanges = v;
    }

    @JsonProperty
    public int getWorkerThreads() {
        return workerThreads;
    }

    @JsonProperty
    public void setWorkerThreads(int v) {
        this.workerThreads = v;
    }

    @JsonProperty
    public int getWorkersPerPubkey() {
        return workersPerPubkey;
    }

    @JsonProperty
    public void setWorkersPerPubkey(int v) {
        this.workersPerPubkey = v;
    }

    @JsonProperty
    public int getMaxUnauthenticatedPerAddress() {
        return maxUnauthenticatedPerAddress;
    }

    @JsonProperty
    public void setMaxUnauthenticatedPerAddress(int v) {
        this.maxUnauthenticatedPerAddress = v;
    }

    @JsonProperty
    public int getMaxUnauthenticatedConnections() {
        return maxUnauthenticatedConnections;
    }

    @JsonProperty
    public void setMaxUnauthenticatedConnections(int v) {
        this.maxUnauthenticatedConnections = v;
    }

    @JsonProperty
    public int getAuthTimeoutSeconds() {
        return authTimeoutSeconds;
    }

    @JsonProperty
    public void setAuthTimeoutSeconds(int v) {
        this.authTimeoutSeconds = v;
    }
}
