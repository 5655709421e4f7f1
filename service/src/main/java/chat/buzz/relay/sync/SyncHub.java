package chat.buzz.relay.sync;

import chat.buzz.relay.changes.Change;
import chat.buzz.relay.channelmeta.ChannelMetadataLive;
import chat.buzz.relay.database.DatabaseOutage;
import chat.buzz.relay.gate.Gates;
import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * This instance's live subscriptions and connections: the {@link ChangeListener} hands every
 * committed change here, and the {@link Fanout} judges it for the subscriptions of its community.
 */
final class SyncHub {
    private final SyncConfig config;
    private final SyncReads reads;
    private final RemovalEvents removals;
    private final Gates gates;
    private final Clock clock;
    private final long overlapSeconds;
    private final FairWorkers streamWorkers;
    private final FairWorkers liveWorkers;
    private final ScheduledExecutorService timers;
    private final Map<Long, Set<Subscription>> byCommunity = new ConcurrentHashMap<>();
    private final Set<SyncSession> sessions = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> connectionsByPubkey = new ConcurrentHashMap<>();
    private final Counter tooSlow;
    private final Counter resets;
    private final Counter backpressureWaits;
    private final Counter idle;
    private final Counter snapshotTimeouts;
    private final Counter statementTimeouts;
    private final Counter authTimeouts;
    private final Counter refusedConnections;
    private final Counter shedConnections;
    private final AtomicInteger activeSnapshots = new AtomicInteger();
    private final AtomicInteger parkedStreams = new AtomicInteger();
    private final ConnectionAdmission admission;
    private final DatabaseOutage outage;
    private final Fanout fanout;
    private final ChannelMetadataLive channelMetadata;

    SyncHub(
            SyncConfig config,
            SyncReads reads,
            RemovalEvents removals,
            Gates gates,
            Clock clock,
            long overlapSeconds,
            FairWorkers streamWorkers,
            FairWorkers liveWorkers,
            Executor fanoutThread,
            ScheduledExecutorService timers,
            MetricRegistry metrics,
            DatabaseOutage outage,
            ChannelMetadataLive channelMetadata) {
        this.config = config;
        this.channelMetadata = channelMetadata;
        this.outage = outage;
        this.reads = reads;
        this.removals = removals;
        this.gates = gates;
        this.clock = clock;
        this.overlapSeconds = overlapSeconds;
        this.streamWorkers = streamWorkers;
        this.liveWorkers = liveWorkers;
        this.timers = timers;
        this.fanout = new Fanout(this, fanoutThread);
        this.admission = new ConnectionAdmission(config);
        this.tooSlow = metrics.counter("buzz.sync.disconnected-too-slow");
        this.resets = metrics.counter("buzz.sync.feed-resets");
        this.backpressureWaits = metrics.counter("buzz.sync.backpressure-waits");
        this.idle = metrics.counter("buzz.sync.disconnected-idle");
        this.snapshotTimeouts = metrics.counter("buzz.sync.snapshot-timeouts");
        this.statementTimeouts = metrics.counter("buzz.sync.statement-timeouts");
        this.authTimeouts = metrics.counter("buzz.sync.disconnected-auth-timeout");
        this.refusedConnections = metrics.counter("buzz.sync.refused-connections");
        this.shedConnections = metrics.counter("buzz.sync.shed-unauthenticated");
        metrics.gauge("buzz.sync.connections", () -> sessions::size);
        metrics.gauge(
                "buzz.sync.subscriptions",
                () -> () -> byCommunity.values().stream().mapToInt(Set::size).sum());
        metrics.gauge("buzz.sync.unauthenticated", () -> admission::waiting);
        metrics.gauge("buzz.sync.workers-busy", () -> streamWorkers::running);
        metrics.gauge("buzz.sync.tasks-waiting", () -> streamWorkers::waiting);
        metrics.gauge("buzz.sync.live-workers-busy", () -> liveWorkers::running);
        metrics.gauge("buzz.sync.live-tasks-waiting", () -> liveWorkers::waiting);
        metrics.gauge("buzz.sync.snapshots-active", () -> activeSnapshots::get);
        metrics.gauge("buzz.sync.streams-parked", () -> parkedStreams::get);
        metrics.gauge("buzz.sync.live-access-queries", () -> reads::liveAccessQueries);
    }

    SyncConfig config() {
        return config;
    }

    DatabaseOutage outage() {
        return outage;
    }

    SyncReads reads() {
        return reads;
    }

    ChannelMetadataLive channelMetadata() {
        return channelMetadata;
    }

    RemovalEvents removals() {
        return removals;
    }

    Gates gates() {
        return gates;
    }

    Clock clock() {
        return clock;
    }

    /** The incremental overlap: how late a change's commit may become visible after its stamp. */
    long overlapSeconds() {
        return overlapSeconds;
    }

    /** A step of a bulk stream (a snapshot or a grant's), queued fairly by address and pubkey. */
    void submitStream(SyncSession session, Runnable task) {
        streamWorkers.submit(session.address(), session.reader(), task);
    }

    /** Live changes of a subscription past its snapshot: their own workers, never behind any stream. */
    void submitLive(SyncSession session, Runnable task) {
        liveWorkers.submit(session.address(), session.reader(), task);
    }

    ScheduledFuture<?> schedule(Runnable task, long delaySeconds) {
        return timers.schedule(task, delaySeconds, TimeUnit.SECONDS);
    }

    void snapshotStarted() {
        activeSnapshots.incrementAndGet();
    }

    void snapshotEnded() {
        activeSnapshots.decrementAndGet();
    }

    void snapshotTimedOut() {
        snapshotTimeouts.inc();
    }

    void statementTimedOut() {
        statementTimeouts.inc();
    }

    /** A bulk stream found its connection's queue full and gave its worker back until the client reads. */
    void parked() {
        backpressureWaits.inc();
        parkedStreams.incrementAndGet();
    }

    void unparked() {
        parkedStreams.decrementAndGet();
    }

    void register(Subscription subscription) {
        byCommunity
                .computeIfAbsent(subscription.community(), c -> ConcurrentHashMap.newKeySet())
                .add(subscription);
    }

    void unregister(Subscription subscription) {
        Set<Subscription> subscriptions = byCommunity.get(subscription.community());
        if (subscriptions != null) {
            subscriptions.remove(subscription);
        }
    }

    /** Runs on the listener thread: only queues work. */
    void dispatch(Change change) {
        fanout.accept(change);
        channelMetadata.accept(change);
    }

    /** The live subscriptions of a community on this instance now. */
    List<Subscription> subscriptionsOf(long community) {
        Set<Subscription> subscriptions = byCommunity.get(community);
        return subscriptions == null ? List.of() : List.copyOf(subscriptions);
    }

    /** Notifications may have been lost: every subscriber rebuilds from a fresh snapshot. */
    void resetAll(String message) {
        resets.inc();
        byCommunity.values().forEach(subscriptions -> subscriptions.forEach(s -> s.close(message)));
        channelMetadata.resetAll(message);
    }

    /**
     * A new connection: admitted to wait for its AUTH, possibly in place of the oldest connection still
     * waiting (which is told and closed), or refused.
     *
     * @return null when admitted, otherwise the NOTICE text saying why not
     */
    String opened(SyncSession session) {
        sessions.add(session);
        ConnectionAdmission.Decision decision = admission.open(session);
        if (decision.shed() != null) {
            shedConnections.inc();
            decision.shed().shed(ConnectionAdmission.SHED_NOTICE);
        }
        if (decision.refusal() != null) {
            refusedConnections.inc();
        }
        return decision.refusal();
    }

    void authenticated(SyncSession session) {
        admission.authenticated(session);
    }

    void authTimedOut() {
        authTimeouts.inc();
    }

    boolean admit(String pubkey) {
        boolean[] admitted = {false};
        connectionsByPubkey.compute(pubkey, (key, count) -> {
            int current = count == null ? 0 : count;
            if (current >= config.getMaxConnectionsPerPubkey()) {
                return count;
            }
            admitted[0] = true;
            return current + 1;
        });
        return admitted[0];
    }

    void closed(SyncSession session, String pubkey) {
        admission.closed(session);
        if (sessions.remove(session) && pubkey != null) {
            connectionsByPubkey.computeIfPresent(pubkey, (key, count) -> count <= 1 ? null : count - 1);
        }
    }

    void tooSlow() {
        tooSlow.inc();
    }

    /** Pings every connection and closes the ones that stopped answering. */
    void pingAll() {
        long limit = TimeUnit.SECONDS.toNanos(config.getIdleTimeoutSeconds());
        long now = System.nanoTime();
        for (SyncSession session : sessions) {
            if (now - session.lastHeardNanos() > limit && !session.outbox().isClosing()) {
                idle.inc();
                session.idle();
            } else {
                session.outbox().ping();
            }
        }
    }
}
