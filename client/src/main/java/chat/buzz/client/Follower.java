package chat.buzz.client;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.FrameVerbs;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a store current until stopped: over WebSocket sync when the relay advertises
 * {@code artifacts.sync} (resubscribing after {@code sync_reset}, reconnecting after a lost
 * connection), otherwise by polling delta sessions. Runs the self-check now and then either way.
 * Everything happens on the thread that calls {@link #run()}.
 */
public final class Follower implements AutoCloseable {
    private static final int LIVE_BATCH = 200;
    /**
     * Instances that may go away in a row, each reconnected at once (a rolling restart can hand the new
     * connection to the instance that is just closing); past that, it waits like any lost connection.
     */
    private static final int GONE_AWAY_AT_ONCE = 3;

    private final SyncClient client;
    private final Duration pollEvery;
    private final Duration checkEvery;
    private final SyncListener listener;
    private volatile boolean stopped;
    private volatile LiveSubscription live;
    private volatile boolean current;
    private int subscriptions;
    private int resubscriptions;
    /** Instances that went away since a subscription was last current. */
    private int goneAway;
    /** When the relay was lost, until the follower is current again; null while connected. */
    private Instant lostAt;
    /** Changes of the initial heads after a reconnect: what happened while the follower was away. */
    private int caughtUp;

    public Follower(SyncClient client, Duration pollEvery, Duration checkEvery) {
        this.client = client;
        this.pollEvery = pollEvery;
        this.checkEvery = checkEvery;
        this.listener = client.listener();
    }

    /** How many times a {@code sync_reset} made it subscribe again. */
    public int resubscriptions() {
        return resubscriptions;
    }

    /** Whether a live subscription has delivered its initial heads and is now sending changes as they happen. */
    public boolean live() {
        return current;
    }

    /** Follows until {@link #close()}; returns normally then. */
    public void run() throws InterruptedException {
        client.sync();
        Instant nextCheck = Instant.now().plus(checkEvery);
        int failures = 0;
        while (!stopped) {
            try {
                if (client.capabilities().sync()) {
                    nextCheck = followLive(nextCheck);
                } else {
                    nextCheck = poll(nextCheck);
                }
                failures = 0;
            } catch (RelayError | ProtocolViolation error) {
                if (stopped) {
                    break;
                }
                failures++;
                Duration wait = Duration.ofMillis(ThreadLocalRandom.current()
                        .nextLong(Math.min(60_000L, 1000L << Math.min(failures, 6)) + 1));
                if (lostAt == null) {
                    lostAt = Instant.now();
                }
                listener.disconnected(error.getMessage(), wait);
                Thread.sleep(wait.toMillis());
                client.refreshCapabilities();
            }
        }
    }

    private Instant poll(Instant nextCheck) throws InterruptedException {
        if (lostAt == null) {
            listener.following("by polling every " + pollEvery.toSeconds() + " s (the relay offers no WebSocket sync)");
        }
        client.reportChanges(true);
        try {
            while (!stopped && !client.capabilities().sync()) {
                SessionReport report = client.sync();
                if (lostAt != null) {
                    caughtUp = report.bootstrap() ? 0 : report.upserts() + report.removes();
                    current("by polling every " + pollEvery.toSeconds() + " s (the relay offers no WebSocket sync)");
                }
                nextCheck = checkIfDue(nextCheck);
                sleepUnlessStopped(pollEvery);
                client.refreshCapabilities();
            }
        } finally {
            client.reportChanges(false);
        }
        return nextCheck;
    }

    /** One connection: AUTH, subscribe, apply, until the connection ends or the follower stops. */
    private Instant followLive(Instant nextCheck) throws InterruptedException {
        try (LiveSubscription connection =
                LiveSubscription.connect(client.http().baseUrl(), client.http().keys())) {
            live = connection;
            String subscription = null;
            Set<String> initial = new HashSet<>();
            LiveChanges batch = new LiveChanges(client.store());
            LiveChannelMetadata channels = new LiveChannelMetadata(client.store(), listener);
            while (!stopped) {
                LiveSubscription.Message message = connection.inbox().poll(250, TimeUnit.MILLISECONDS);
                if (message == null) {
                    batch.flush();
                    if (subscription != null && initial == null && checkDue(nextCheck)) {
                        batch.caughtUpThrough(connection.lastArrival());
                        nextCheck = check();
                    }
                    continue;
                }
                if (message.ended()) {
                    batch.flush();
                    if (stopped) {
                        return nextCheck;
                    }
                    // A restart of one instance: connect again at once, and the proxy picks another.
                    if (message.goingAway() && ++goneAway <= GONE_AWAY_AT_ONCE) {
                        listener.note("the relay instance is restarting; connecting again");
                        return nextCheck;
                    }
                    throw new RelayError(0, "unreachable", "WebSocket " + message.reason(), null);
                }
                JsonNode frame = message.message();
                if (channels.handles(frame)) {
                    continue;
                }
                switch (message.verb()) {
                    case FrameVerbs.AUTH ->
                        connection.authenticate(frame.path(1).asText());
                    case FrameVerbs.OK -> {
                        if (!frame.path(2).asBoolean()) {
                            throw new RelayError(
                                    401,
                                    "auth-refused",
                                    "the relay refused AUTH: " + frame.path(3).asText(),
                                    null);
                        }
                        subscription = "buzz-sync-" + (++subscriptions);
                        initial = new HashSet<>();
                        connection.subscribe(subscription, client.scope());
                        channels.subscribe(connection, "buzz-channels-" + subscriptions);
                    }
                    case FrameVerbs.EVENT -> {
                        if (!frame.path(1).asText().equals(subscription)) {
                            continue;
                        }
                        Entry entry = Entry.fromSyncEvent(frame.path(2));
                        if (initial != null && entry.upsert()) {
                            initial.add(entry.d());
                            reportIfNew(entry);
                        }
                        if (!batch.offer(message.arrival(), entry)) {
                            continue;
                        }
                        if (initial == null) {
                            listener.changed(entry);
                            batch.flush();
                        } else if (batch.pending() >= LIVE_BATCH) {
                            batch.flush();
                        }
                    }
                    case FrameVerbs.EOSE -> {
                        if (frame.path(1).asText().equals(subscription) && initial != null) {
                            batch.flush();
                            reportGone(initial);
                            int dropped = client.store().retainOnly(initial);
                            if (dropped > 0) {
                                listener.note("subscription's initial heads: dropped " + dropped
                                        + " ids the relay no longer has for this key");
                            }
                            initial = null;
                            current = true;
                            current("live over WebSocket sync");
                        }
                    }
                    case FrameVerbs.CLOSED -> {
                        String reason = frame.path(2).asText();
                        if (!frame.path(1).asText().equals(subscription)) {
                            continue;
                        }
                        batch.flush();
                        if (reason.startsWith(ErrorCodes.SYNC_RESET)) {
                            resubscriptions++;
                            current = false;
                            listener.note("policy reset (" + reason + "): subscribing again");
                            subscription = "buzz-sync-" + (++subscriptions);
                            initial = new HashSet<>();
                            connection.subscribe(subscription, client.scope());
                        } else {
                            client.refreshCapabilities();
                            throw new RelayError(
                                    503, reason.split(":", 2)[0], "the relay closed the subscription: " + reason, null);
                        }
                    }
                    case FrameVerbs.NOTICE ->
                        listener.note("relay notice: " + frame.path(1).asText());
                    default -> {}
                }
            }
            return nextCheck;
        } finally {
            live = null;
            current = false;
        }
    }

    /** Says the follower is current: the first time, or as a reconnection with what it caught up on. */
    private void current(String how) {
        goneAway = 0;
        if (lostAt == null) {
            listener.following(how);
        } else {
            listener.reconnected(how, Duration.between(lostAt, Instant.now()), caughtUp);
            lostAt = null;
        }
        caughtUp = 0;
    }

    /** An initial head the store does not hold yet changed while the follower was away (or since its sync). */
    private void reportIfNew(Entry entry) {
        boolean held = client.store()
                .get(entry.d())
                .map(a -> a.headId().equals(entry.headId()))
                .orElse(false);
        if (!held) {
            caughtUp++;
            listener.changed(entry);
        }
    }

    /** Held ids the initial heads left out are gone: reported as removes before the store drops them. */
    private void reportGone(Set<String> initial) {
        for (StoredArtifact artifact : client.store().list(Optional.empty())) {
            if (!artifact.knownIdOnly() && !initial.contains(artifact.d())) {
                caughtUp++;
                listener.changed(new Entry(false, artifact.d(), artifact.h(), null, null, "gone while away"));
            }
        }
    }

    private Instant checkIfDue(Instant nextCheck) {
        return checkDue(nextCheck) ? check() : nextCheck;
    }

    private boolean checkDue(Instant nextCheck) {
        return !Instant.now().isBefore(nextCheck) && client.capabilities().incremental();
    }

    /** The self-check; the next one's time. */
    private Instant check() {
        client.check(true);
        return Instant.now().plus(checkEvery);
    }

    private void sleepUnlessStopped(Duration duration) throws InterruptedException {
        long until = System.nanoTime() + duration.toNanos();
        while (!stopped && System.nanoTime() < until) {
            Thread.sleep(Math.min(100, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
        }
    }

    @Override
    public void close() {
        stopped = true;
        LiveSubscription connection = live;
        if (connection != null) {
            connection.close();
        }
    }
}
