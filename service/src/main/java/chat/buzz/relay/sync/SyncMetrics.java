package chat.buzz.relay.sync;

import chat.buzz.relay.changes.PolicyChangeEntriesSent;
import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * Every sync figure on {@code /metrics}, by the names the runbooks and dashboards use, and the
 * entries sent for each channel policy change delivered as entries, for the operations console. The
 * counters are bumped by whoever sees the event; the gauges read the parts that hold the state.
 */
final class SyncMetrics {
    /** The client messages timed one by one; any other verb is timed as "other". */
    private static final List<String> VERBS = List.of("auth", "req", "close", "other");

    private final MetricRegistry registry;
    private final Counter tooSlow;
    private final Counter feedResets;
    private final Counter backpressureWaits;
    private final Counter idle;
    private final Counter snapshotTimeouts;
    private final Counter statementTimeouts;
    private final Counter authTimeouts;
    private final Counter refusedConnections;
    private final Counter shedConnections;
    private final AtomicInteger activeSnapshots = new AtomicInteger();
    private final AtomicInteger parkedStreams = new AtomicInteger();
    private final PolicyChangeEntriesSent policyChangeEntriesSent;
    private final Timer fanoutLag;
    private final AtomicInteger fanoutPending = new AtomicInteger();
    private final Map<String, Timer> messages = new HashMap<>();

    SyncMetrics(MetricRegistry registry, PolicyChangeEntriesSent policyChangeEntriesSent) {
        this.registry = registry;
        this.policyChangeEntriesSent = policyChangeEntriesSent;
        this.tooSlow = registry.counter("buzz.sync.disconnected-too-slow");
        this.feedResets = registry.counter("buzz.sync.feed-resets");
        this.backpressureWaits = registry.counter("buzz.sync.backpressure-waits");
        this.idle = registry.counter("buzz.sync.disconnected-idle");
        this.snapshotTimeouts = registry.counter("buzz.sync.snapshot-timeouts");
        this.statementTimeouts = registry.counter("buzz.sync.statement-timeouts");
        this.authTimeouts = registry.counter("buzz.sync.disconnected-auth-timeout");
        this.refusedConnections = registry.counter("buzz.sync.refused-connections");
        this.shedConnections = registry.counter("buzz.sync.shed-unauthenticated");
        registry.gauge("buzz.sync.snapshots-active", () -> activeSnapshots::get);
        registry.gauge("buzz.sync.streams-parked", () -> parkedStreams::get);
        this.fanoutLag = registry.timer("buzz.sync.fanout-lag");
        registry.gauge("buzz.sync.fanout-pending", () -> fanoutPending::get);
        for (String verb : VERBS) {
            messages.put(verb, registry.timer(MetricRegistry.name("buzz", "sync", "messages", verb)));
        }
    }

    /** A change the listener heard was queued for judging; {@link #handedOut} follows in order. */
    void fanoutQueued() {
        fanoutPending.incrementAndGet();
    }

    /**
     * A change was handed to its subscriptions, {@code nanos} after the listener heard it: the fan-out lag,
     * which grows when judging falls behind the feed (the commit-to-NOTIFY delay is PostgreSQL's, not here).
     */
    void handedOut(long nanos) {
        fanoutPending.decrementAndGet();
        fanoutLag.update(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Times a WebSocket client message of {@code verb} (AUTH, REQ, CLOSE; anything else counts as other):
     * the WebSocket's per-route rate and how long the relay took to take the message in.
     */
    Timer.Context message(String verb) {
        Timer timer = messages.get(verb.toLowerCase(Locale.ROOT));
        return (timer == null ? messages.get("other") : timer).time();
    }

    /** The gauges of the parts that hold their own state: connections, subscriptions, workers and reads. */
    void watch(
            SyncConnections connections, LiveSubscriptions subscriptions, SyncWorkers workers, SyncStatements reads) {
        gauge("buzz.sync.connections", connections::count);
        gauge("buzz.sync.subscriptions", subscriptions::count);
        gauge("buzz.sync.unauthenticated", connections::waitingForAuth);
        gauge("buzz.sync.workers-busy", workers.stream()::running);
        gauge("buzz.sync.tasks-waiting", workers.stream()::waiting);
        gauge("buzz.sync.live-workers-busy", workers.live()::running);
        gauge("buzz.sync.live-tasks-waiting", workers.live()::waiting);
        registry.gauge("buzz.sync.live-access-queries", () -> reads::liveAccessQueries);
    }

    private void gauge(String name, IntSupplier value) {
        registry.gauge(name, () -> value::getAsInt);
    }

    /** A subscriber was sent {@code frames} entries for the policy change recorded as history row {@code settingsChange}. */
    void policyChangeEntriesSent(long communityId, long settingsChange, int frames) {
        policyChangeEntriesSent.sentFor(communityId, settingsChange, frames);
    }

    void tooSlow() {
        tooSlow.inc();
    }

    void feedReset() {
        feedResets.inc();
    }

    void idle() {
        idle.inc();
    }

    void authTimedOut() {
        authTimeouts.inc();
    }

    void refused() {
        refusedConnections.inc();
    }

    void shed() {
        shedConnections.inc();
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
}
