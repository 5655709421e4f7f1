package chat.buzz.relay.sync;

import chat.buzz.relay.gate.Gate;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands every committed change to this instance's subscriptions, one change at a time in the order
 * the listener heard them. A head change is judged for all live subscriptions of its community in
 * one query (one row per distinct reader, scope and floor), so the cost of a write grows with the
 * number of subscribers by a row, not by a query. A subscription still streaming its snapshot has
 * no floor yet: it gets the bare change and judges it itself after EOSE, as before.
 */
final class Fanout {
    private static final Logger LOG = LoggerFactory.getLogger(Fanout.class);

    private final SyncHub hub;
    private final Executor serial;

    /** @param serial runs one task at a time, in submission order */
    Fanout(SyncHub hub, Executor serial) {
        this.hub = hub;
        this.serial = serial;
    }

    /** Runs on the listener thread: only queues. */
    void accept(Change change) {
        try {
            serial.execute(() -> deliver(change));
        } catch (RejectedExecutionException e) {
            LOG.debug("Sync fan-out is shutting down; a change was dropped", e);
        }
    }

    private void deliver(Change change) {
        List<Subscription> subscriptions = hub.subscriptionsOf(change.community());
        if (subscriptions.isEmpty()) {
            return;
        }
        switch (change.kind()) {
            case POLICY -> subscriptions.forEach(s -> s.close("sync_reset: policy changed"));
            case MEMBER -> subscriptions.forEach(s -> s.offer(change));
            case HEAD -> headChanged(change, subscriptions);
        }
    }

    private void headChanged(Change change, List<Subscription> subscriptions) {
        if (!hub.gates().isEnabled(Gate.SYNC)) {
            // Each subscription notices the gate when it applies the change, and ends.
            subscriptions.forEach(s -> s.offer(change));
            return;
        }
        Map<SyncReads.Judging, Integer> readers = new LinkedHashMap<>();
        Map<Subscription, Integer> live = new LinkedHashMap<>();
        for (Subscription subscription : subscriptions) {
            if (!subscription.concerns(change)) {
                continue;
            }
            SyncReads.Judging judging = subscription.judging();
            if (judging == null) {
                subscription.offer(change);
            } else {
                live.put(subscription, readers.computeIfAbsent(judging, j -> readers.size()));
            }
        }
        if (live.isEmpty()) {
            return;
        }
        List<SyncReads.ReaderView> views;
        try {
            views = hub.reads().headForReaders(change.community(), change.d(), List.copyOf(readers.keySet()));
        } catch (RuntimeException e) {
            // Each subscription judges the change alone and ends the way its own failure says.
            LOG.warn("Sync fan-out could not judge a change for all subscribers at once", e);
            live.keySet().forEach(s -> s.offer(change));
            return;
        }
        if (views.isEmpty()) {
            return;
        }
        String[] events = events(change.d(), views);
        live.forEach((subscription, reader) -> {
            if (events[reader] != null) {
                subscription.offer(change, events[reader]);
            }
        });
    }

    /** The event each reader gets: the head, a removal, or nothing (null); each distinct removal is signed once. */
    private String[] events(UUID d, List<SyncReads.ReaderView> views) {
        String head = views.stream().map(SyncReads.ReaderView::json).filter(json -> json != null).findFirst().orElse(null);
        Map<String, String> removals = new HashMap<>();
        String[] events = new String[views.size()];
        for (int i = 0; i < events.length; i++) {
            SyncReads.ReaderView view = views.get(i);
            if (view.discoverable()) {
                events[i] = head;
            } else if (view.reason() != null) {
                events[i] = removals.computeIfAbsent(view.reason() + " " + view.named(),
                        key -> hub.removals().removal(d, view.named(), view.reason()));
            }
        }
        return events;
    }
}
