package chat.buzz.relay.sync;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * Limits of WebSocket sync (the {@code sync:} section). Every limit is per relay instance. Jackson sets
 * the annotated fields; the relay only reads them.
 */
public class SyncConfig {
    @Min(1)
    @Max(1000)
    @JsonProperty
    private int maxSubscriptionsPerConnection = 10;

    @Min(1)
    @Max(10_000)
    @JsonProperty
    private int maxConnectionsPerPubkey = 8;

    /** Largest client frame; an AUTH event or a REQ is far smaller than this. */
    @Min(1024)
    @Max(16 * 1024 * 1024)
    @JsonProperty
    private int maxMessageBytes = 64 * 1024;

    /** Frames waiting to be written to one connection. */
    @Min(2)
    @Max(100_000)
    @JsonProperty
    private int queueFrames = 256;

    /** Characters waiting to be written to one connection, whatever the frame count. */
    @Min(1024)
    @Max(256 * 1024 * 1024)
    @JsonProperty
    private int queueBytes = 4 * 1024 * 1024;

    /** Rows per snapshot query; the snapshot is read in keyset chunks of this size. */
    @Min(1)
    @Max(10_000)
    @JsonProperty
    private int snapshotChunk = 200;

    /**
     * A channel policy change delivered as entries is judged for all of an instance's live subscribers
     * at once when their entries together stay under this many; above it each subscriber streams the
     * change's entries in keyset chunks of its own, so a large channel is never held whole.
     */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int policyChangeEntriesAtOnce = 20_000;

    /** A snapshot not finished this long after its REQ ends with {@code CLOSED error:}, however far it got. */
    @Min(1)
    @Max(86_400)
    @JsonProperty
    private int snapshotTimeoutSeconds = 300;

    /** statement_timeout of every sync query, as for incremental reads. */
    @Min(10)
    @Max(600_000)
    @JsonProperty
    private long statementBudgetMillis = 2000;

    @Min(1)
    @Max(3600)
    @JsonProperty
    private int pingIntervalSeconds = 20;

    /** A connection with no frame (message or pong) from the client for this long is closed. */
    @Min(2)
    @Max(86_400)
    @JsonProperty
    private int idleTimeoutSeconds = 60;

    /** Changes waiting to be checked for one subscription; beyond this the client is told to resubscribe. */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int pendingChanges = 10_000;

    /** Threads that stream snapshots and grants (bulk streams) for this instance's subscriptions. */
    @Min(1)
    @Max(256)
    @JsonProperty
    private int workerThreads = 8;

    /** Workers one pubkey's subscriptions may use at once (at most {@code workerThreads}). */
    @Min(1)
    @Max(256)
    @JsonProperty
    private int workersPerPubkey = 2;

    /** Threads that apply live changes of subscriptions past their snapshot; they never serve snapshots. */
    @Min(1)
    @Max(64)
    @JsonProperty
    private int liveWorkerThreads = 2;

    /** Snapshot workers the subscriptions of one address may use at once, whatever their pubkeys. */
    @Min(1)
    @Max(256)
    @JsonProperty
    private int workersPerAddress = 4;

    /** Connections from one IP address that have not authenticated yet; further ones are refused. */
    @Min(1)
    @Max(100_000)
    @JsonProperty
    private int maxUnauthenticatedPerAddress = 16;

    /** Connections of this instance that have not authenticated yet, from all addresses together. */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int maxUnauthenticatedConnections = 1000;

    /**
     * Connections from one IP address (behind a trusted proxy, the client's forwarded address), whether
     * authenticated or not; further ones are refused.
     */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int maxConnectionsPerAddress = 64;

    /**
     * Connections of this instance, authenticated or not. When it is full, a new connection takes the
     * place of the one that has waited longest without authenticating; with none waiting it is refused.
     */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int maxConnections = 10_000;

    /** A connection without a successful AUTH this long after it opened gets a NOTICE and is closed. */
    @Min(1)
    @Max(3600)
    @JsonProperty
    private int authTimeoutSeconds = 30;

    public int getMaxSubscriptionsPerConnection() {
        return maxSubscriptionsPerConnection;
    }

    public int getMaxConnectionsPerPubkey() {
        return maxConnectionsPerPubkey;
    }

    public int getMaxMessageBytes() {
        return maxMessageBytes;
    }

    public int getQueueFrames() {
        return queueFrames;
    }

    public int getQueueBytes() {
        return queueBytes;
    }

    public int getSnapshotChunk() {
        return snapshotChunk;
    }

    public int getPolicyChangeEntriesAtOnce() {
        return policyChangeEntriesAtOnce;
    }

    public int getSnapshotTimeoutSeconds() {
        return snapshotTimeoutSeconds;
    }

    public long getStatementBudgetMillis() {
        return statementBudgetMillis;
    }

    public int getPingIntervalSeconds() {
        return pingIntervalSeconds;
    }

    public int getIdleTimeoutSeconds() {
        return idleTimeoutSeconds;
    }

    public int getPendingChanges() {
        return pendingChanges;
    }

    public int getWorkerThreads() {
        return workerThreads;
    }

    public int getWorkersPerPubkey() {
        return workersPerPubkey;
    }

    public int getLiveWorkerThreads() {
        return liveWorkerThreads;
    }

    public int getWorkersPerAddress() {
        return workersPerAddress;
    }

    public int getMaxUnauthenticatedPerAddress() {
        return maxUnauthenticatedPerAddress;
    }

    public int getMaxUnauthenticatedConnections() {
        return maxUnauthenticatedConnections;
    }

    public int getMaxConnectionsPerAddress() {
        return maxConnectionsPerAddress;
    }

    public int getMaxConnections() {
        return maxConnections;
    }

    public int getAuthTimeoutSeconds() {
        return authTimeoutSeconds;
    }
}
