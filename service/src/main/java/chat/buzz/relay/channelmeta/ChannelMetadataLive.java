package chat.buzz.relay.channelmeta;

import chat.buzz.protocol.Event;
import chat.buzz.relay.changes.Change;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live channel metadata over WebSocket (PROTOCOL 4.6): this instance's subscriptions, told of every
 * committed channel, membership and policy change that the change feed (LISTEN/NOTIFY) hears, so
 * changes made through any instance reach them. All work runs on one serial executor, which orders
 * each subscription's snapshot before the changes heard after it registered: a change committed
 * before registration is in the snapshot, any later one is judged after it.
 */
public final class ChannelMetadataLive {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelMetadataLive.class);

    /** Where a subscription's frames go: the connection's queue, which ends the connection when full. */
    public interface Sink {
        void event(String eventJson);

        void endOfStoredEvents();

        void closed(String reason);
    }

    /** A subscription, as its connection holds it. */
    public interface Handle {
        void cancel();
    }

    private final ChannelMetadataReads reads;
    private final Executor serial;
    private final Map<Long, Set<MetadataSubscription>> byCommunity = new ConcurrentHashMap<>();

    /** @param serial runs one task at a time, in order */
    public ChannelMetadataLive(ChannelMetadataReads reads, Executor serial) {
        this.reads = reads;
        this.serial = serial;
    }

    public String relayPubkey() {
        return reads.relayPubkey();
    }

    public Handle subscribe(long community, String reader, ChannelMetadataFilter filter, Sink sink) {
        MetadataSubscription subscription = new MetadataSubscription(community, reader, filter, sink);
        run(() -> {
            if (subscription.cancelled()) {
                return;
            }
            byCommunity
                    .computeIfAbsent(community, c -> ConcurrentHashMap.newKeySet())
                    .add(subscription);
            try {
                subscription.snapshot(reads.read(community, reader, filter));
            } catch (RuntimeException e) {
                fail(subscription, e);
            }
        });
        return () -> {
            subscription.cancel();
            run(() -> forget(subscription));
        };
    }

    /** Runs on the change listener's thread: only queues. */
    public void accept(Change change) {
        if (change.kind() == Change.Kind.HEAD || change.channel() == null) {
            return;
        }
        run(() -> changed(change.community(), change.channel()));
    }

    /** Change notices may have been lost: every subscriber subscribes again and gets a fresh snapshot. */
    public void resetAll(String reason) {
        run(() -> byCommunity.values().forEach(subscriptions -> {
            for (MetadataSubscription subscription : List.copyOf(subscriptions)) {
                subscription.close(reason);
                forget(subscription);
            }
        }));
    }

    private void changed(long community, UUID channel) {
        Set<MetadataSubscription> subscriptions = byCommunity.get(community);
        if (subscriptions == null) {
            return;
        }
        for (MetadataSubscription subscription : List.copyOf(subscriptions)) {
            if (subscription.cancelled() || !subscription.filter().concerns(channel)) {
                continue;
            }
            try {
                List<Event> now = reads.channel(community, subscription.reader(), channel, subscription.filter());
                subscription.update(
                        channel,
                        now,
                        () -> reads.withdrawal(channel, subscription.filter().kinds()));
            } catch (RuntimeException e) {
                fail(subscription, e);
            }
        }
    }

    private void fail(MetadataSubscription subscription, RuntimeException e) {
        LOG.warn("Channel metadata subscription failed; the client is told to subscribe again", e);
        subscription.close("error: could not read channel metadata; subscribe again");
        forget(subscription);
    }

    private void forget(MetadataSubscription subscription) {
        Set<MetadataSubscription> subscriptions = byCommunity.get(subscription.community());
        if (subscriptions != null) {
            subscriptions.remove(subscription);
        }
    }

    private void run(Runnable task) {
        try {
            serial.execute(task);
        } catch (RejectedExecutionException e) {
            LOG.debug("Channel metadata notifier is shutting down; a task was dropped", e);
        }
    }
}
