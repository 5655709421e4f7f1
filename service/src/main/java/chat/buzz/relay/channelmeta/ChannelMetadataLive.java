package chat.buzz.relay.channelmeta;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.changes.Change;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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

    public Handle subscribe(long community, String reader, MetadataRequest request, Sink sink) {
        List<ChannelMetadataFilter> watches = new ArrayList<>();
        for (DeletionFilter deletion : request.deletions()) {
            deletion.watched(reads.relayPubkey()).ifPresent(watches::add);
        }
        MetadataSubscription subscription = new MetadataSubscription(community, reader, request, watches, sink);
        run(() -> {
            if (subscription.cancelled()) {
                return;
            }
            byCommunity
                    .computeIfAbsent(community, c -> ConcurrentHashMap.newKeySet())
                    .add(subscription);
            try {
                Map<UUID, Set<Integer>> watched = new HashMap<>();
                for (ChannelMetadataFilter watch : watches) {
                    for (Event event : reads.read(community, reader, watch)) {
                        watched.computeIfAbsent(channelOf(event), c -> new TreeSet<>())
                                .addAll(watch.kinds());
                    }
                }
                subscription.snapshot(reads.read(community, reader, request), watched);
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
            if (subscription.cancelled()) {
                continue;
            }
            try {
                changed(community, channel, subscription);
            } catch (RuntimeException e) {
                fail(subscription, e);
            }
        }
    }

    private void changed(long community, UUID channel, MetadataSubscription subscription) {
        Map<String, Event> now = new LinkedHashMap<>();
        Set<Integer> concernedKinds = new TreeSet<>();
        boolean concerned = false;
        for (ChannelMetadataFilter filter : subscription.metadataFilters()) {
            if (filter.concerns(channel)) {
                concerned = true;
                concernedKinds.addAll(filter.kinds());
                for (Event event : reads.channel(community, subscription.reader(), channel, filter)) {
                    now.putIfAbsent(event.id(), event);
                }
            }
        }
        Set<Integer> watchedKinds = new TreeSet<>();
        for (ChannelMetadataFilter watch : subscription.watches()) {
            if (watch.concerns(channel)) {
                concerned = true;
                if (!reads.channel(community, subscription.reader(), channel, watch)
                        .isEmpty()) {
                    watchedKinds.addAll(watch.kinds());
                }
            }
        }
        if (concerned) {
            subscription.update(
                    channel,
                    List.copyOf(now.values()),
                    watchedKinds,
                    concernedKinds,
                    kinds -> reads.withdrawal(channel, kinds));
        }
    }

    private static UUID channelOf(Event event) {
        return UUID.fromString(event.tag(Tags.ARTIFACT_ID).orElseThrow());
    }

    private void fail(MetadataSubscription subscription, RuntimeException e) {
        LOG.warn("Channel metadata subscription failed; the client is told to subscribe again", e);
        subscription.close(ErrorCodes.ERROR_PREFIX + "could not read channel metadata; subscribe again");
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
