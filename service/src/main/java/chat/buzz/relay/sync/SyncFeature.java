package chat.buzz.relay.sync;

import chat.buzz.relay.access.Overlap;
import chat.buzz.relay.changes.PolicyChangeEntriesSent;
import chat.buzz.relay.channelmeta.ChannelMetadataLive;
import chat.buzz.relay.channelmeta.ChannelMetadataReads;
import chat.buzz.relay.community.CommunityDirectory;
import chat.buzz.relay.database.RelayDatabase;
import chat.buzz.relay.gate.Gates;
import chat.buzz.relay.health.Drain;
import chat.buzz.relay.identity.RelayIdentity;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.DispatcherType;
import java.time.Clock;
import java.util.EnumSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.ee10.websocket.jakarta.server.config.JakartaWebSocketServletContainerInitializer;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** Wires WebSocket sync into the application: endpoint, worker pool, pinger and change listener. */
public final class SyncFeature {
    /** Changes judged at once: each holds a pooled connection for one short query. */
    private static final int FANOUT_JUDGES = 2;

    private SyncFeature() {}

    /** What sync works with from the rest of the application. */
    public record Needs(
            RelayDatabase database,
            CommunityDirectory communities,
            Gates gates,
            RelayIdentity identity,
            Clock clock,
            ChannelMetadataReads channelMetadata,
            PolicyChangeEntriesSent policyChangeEntriesSent,
            Drain drain) {}

    /**
     * @param publicScheme the scheme clients connect with when no trusted proxy says otherwise
     * @param overlap the incremental overlap: how late a change's commit may become visible
     * @return whether this instance's change feed is connected now (readiness)
     */
    public static BooleanSupplier register(
            Environment environment, SyncConfig config, String publicScheme, Overlap overlap, Needs needs) {
        LiveDemand liveDemand = new LiveDemand();
        FairWorkers streamWorkers = new FairWorkers(
                fixedThreads(environment, "sync-worker-%d", config.getWorkerThreads()),
                config.getWorkerThreads(),
                config.getWorkersPerPubkey(),
                config.getWorkersPerAddress(),
                liveDemand);
        liveDemand.whenIdle(streamWorkers::dispatch);
        FairWorkers liveWorkers = new FairWorkers(
                fixedThreads(environment, "sync-live-%d", config.getLiveWorkerThreads()),
                config.getLiveWorkerThreads(),
                config.getWorkersPerPubkey(),
                config.getLiveWorkerThreads());
        // Pings and deadlines (AUTH, snapshot): each task only queues a frame or a close, never waits.
        ScheduledExecutorService timers = environment
                .lifecycle()
                .scheduledExecutorService("sync-timers")
                .threads(1)
                .removeOnCancelPolicy(true)
                .build();
        // One query per change; a few changes judged at once, handed out in the order they were heard.
        ExecutorService fanoutThread = fixedThreads(environment, "sync-fanout-%d", FANOUT_JUDGES);
        // Channel metadata subscriptions: one thread, so each snapshot is ordered before later changes.
        ExecutorService channelMetadataThread = fixedThreads(environment, "channel-metadata-%d", 1);
        SyncWorkers workers = new SyncWorkers(streamWorkers, liveWorkers, liveDemand, timers);
        SyncMetrics metrics = new SyncMetrics(environment.metrics(), needs.policyChangeEntriesSent());
        SyncStatements reads = new SyncStatements(needs.database().jdbi(), config.getStatementBudgetMillis(), overlap);
        SyncConnections connections = new SyncConnections(config, metrics);
        LiveSubscriptions subscriptions = new LiveSubscriptions();
        metrics.watch(connections, subscriptions, workers, reads);
        SyncContext context = new SyncContext(
                config,
                reads,
                new RemovalEvents(needs.identity(), needs.clock()),
                needs.gates(),
                needs.clock(),
                needs.database().outage(),
                workers,
                metrics,
                connections,
                subscriptions,
                new ChannelMetadataLive(needs.channelMetadata(), channelMetadataThread));
        ChangeListener listener = new ChangeListener(
                needs.database().settings(),
                new ChangeDispatch(
                        new Fanout(context, fanoutThread), context.channelMetadata(), subscriptions, metrics));
        environment.lifecycle().manage(listener);
        // Once the proxy has moved traffic away, subscribers reconnect elsewhere before the listeners close.
        needs.drain().afterDrain(connections::goAwayAll);

        timers.scheduleWithFixedDelay(
                () -> {
                    try {
                        connections.pingAll();
                    } catch (RuntimeException e) {
                        org.slf4j.LoggerFactory.getLogger(SyncFeature.class).warn("Sync ping round failed", e);
                    }
                },
                config.getPingIntervalSeconds(),
                config.getPingIntervalSeconds(),
                TimeUnit.SECONDS);

        // Jetty retires one idle thread per idle timeout by default, so the threads a herd of connections
        // called up would stay for hours after it left; let every idle one go at its timeout.
        environment.lifecycle().addServerLifecycleListener(server -> {
            if (server.getThreadPool() instanceof QueuedThreadPool pool) {
                pool.setMaxEvictCount(pool.getMaxThreads());
            }
        });
        JakartaWebSocketServletContainerInitializer.configure(
                environment.getApplicationContext(),
                (servletContext, container) ->
                        container.setDefaultMaxTextMessageBufferSize(config.getMaxMessageBytes()));
        environment
                .servlets()
                .addFilter("sync-upgrade", new SyncUpgradeFilter(needs.communities(), context, publicScheme))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        return listener::isListening;
    }

    private static ExecutorService fixedThreads(Environment environment, String names, int threads) {
        return environment
                .lifecycle()
                .executorService(names)
                .minThreads(threads)
                .maxThreads(threads)
                .build();
    }
}
