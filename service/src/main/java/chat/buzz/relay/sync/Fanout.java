package chat.buzz.relay.sync;

import chat.buzz.relay.access.Judge;
import chat.buzz.relay.changes.Change;
import chat.buzz.relay.changes.PolicyChangeDirection;
import chat.buzz.relay.gate.Gate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands every committed change to this instance's subscriptions in the order the listener heard
 * them. A head change is judged for all live subscriptions of its community in one query (one row
 * per distinct reader, scope and floor), so the cost of a write grows with the number of subscribers
 * by a row, not by a query. Several changes may be judged at once, on the judging threads, but each
 * change's frames are handed to the subscriptions only after the previous change's. A subscription
 * still streaming its snapshot has no floor yet: it gets the bare change and judges it itself after
 * EOSE, as before.
 */
final class Fanout {
    private static final Logger LOG = LoggerFactory.getLogger(Fanout.class);

    private static final Runnable NOTHING = () -> {};

    private final SyncContext context;
    private final Executor judges;
    /** Completes once the last accepted change was handed out; only the listener thread replaces it. */
    private CompletableFuture<Void> handedOut = CompletableFuture.completedFuture(null);

    /** @param judges runs the judging queries; any number at once */
    Fanout(SyncContext context, Executor judges) {
        this.context = context;
        this.judges = judges;
    }

    /** Runs on the listener thread: only queues. */
    void accept(Change change) {
        CompletableFuture<Runnable> judged;
        try {
            judged = CompletableFuture.supplyAsync(() -> judge(change), judges);
        } catch (RejectedExecutionException e) {
            LOG.debug("Sync fan-out is shutting down; a change was dropped", e);
            return;
        }
        handedOut = handedOut.thenCombine(
                judged.exceptionally(failure -> {
                    LOG.warn("Sync fan-out could not judge a change", failure);
                    return NOTHING;
                }),
                (previous, handOut) -> {
                    try {
                        handOut.run();
                    } catch (RuntimeException e) {
                        LOG.warn("Sync fan-out could not hand out a change", e);
                    }
                    return null;
                });
    }

    /** Decides what each subscription gets; the returned step hands it out and only queues. */
    private Runnable judge(Change change) {
        List<Subscription> subscriptions = context.subscriptions().of(change.community());
        if (subscriptions.isEmpty()) {
            return NOTHING;
        }
        return switch (change.kind()) {
            case POLICY -> () -> subscriptions.forEach(s -> s.close("sync_reset: policy changed"));
            // Each subscription whose scope holds the channel judges the channel's artifacts itself.
            case MEMBER -> () -> subscriptions.forEach(s -> s.offer(change));
            case SETTINGS -> {
                Change told = change.withDirection(direction(change));
                yield () -> subscriptions.forEach(s -> s.offer(told));
            }
            case HEAD -> headChanged(change, subscriptions);
            // A new or renamed channel changes no artifact's discoverability; channel metadata hears it.
            case CHANNEL -> NOTHING;
        };
    }

    /**
     * Which way a policy change can go, read once for all subscriptions; when it cannot be read, either
     * way (each subscription then asks for both, and meets the same trouble in its own reads).
     */
    private PolicyChangeDirection direction(Change change) {
        try {
            return context.reads().settingsDirection(change.settings());
        } catch (RuntimeException e) {
            LOG.warn("Could not read policy change {}; subscribers judge it both ways", change.settings(), e);
            return PolicyChangeDirection.BOTH;
        }
    }

    private Runnable headChanged(Change change, List<Subscription> subscriptions) {
        if (!context.gates().isEnabled(Gate.SYNC)) {
            // Each subscription notices the gate when it applies the change, and ends.
            return () -> subscriptions.forEach(s -> s.offer(change));
        }
        Map<SyncReads.Judging, Integer> readers = new LinkedHashMap<>();
        Map<Subscription, Integer> live = new LinkedHashMap<>();
        List<Subscription> alone = new ArrayList<>();
        for (Subscription subscription : subscriptions) {
            if (!subscription.concerns(change)) {
                continue;
            }
            SyncReads.Judging judging = subscription.judging();
            if (judging == null) {
                alone.add(subscription);
            } else {
                live.put(subscription, readers.computeIfAbsent(judging, j -> readers.size()));
            }
        }
        if (live.isEmpty()) {
            return () -> alone.forEach(s -> s.offer(change));
        }
        String[] events;
        try {
            List<SyncReads.ReaderView> views =
                    context.reads().headForReaders(change.community(), change.d(), List.copyOf(readers.keySet()));
            events = views.isEmpty() ? new String[readers.size()] : events(change.d(), views);
        } catch (RuntimeException e) {
            // Each subscription judges the change alone and ends the way its own failure says.
            LOG.warn("Sync fan-out could not judge a change for all subscribers at once", e);
            return () -> subscriptions.stream().filter(s -> s.concerns(change)).forEach(s -> s.offer(change));
        }
        Map<Subscription, String> frames = frames(live, events);
        return () -> {
            alone.forEach(s -> s.offer(change));
            frames.forEach((subscription, frame) -> subscription.offer(change, frame));
        };
    }

    /**
     * The frame each live subscription gets, rendered on the judging thread: once per distinct
     * subscription id and event, so subscribers that share an id (most clients use the same one)
     * share one string, byte for byte what each would have rendered itself.
     */
    private static Map<Subscription, String> frames(Map<Subscription, Integer> live, String[] events) {
        Map<String, Map<String, String>> rendered = new HashMap<>();
        Map<Subscription, String> frames = new LinkedHashMap<>();
        live.forEach((subscription, reader) -> {
            String event = events[reader];
            if (event != null) {
                frames.put(
                        subscription,
                        rendered.computeIfAbsent(subscription.id(), id -> new IdentityHashMap<>())
                                .computeIfAbsent(event, e -> Frames.event(subscription.id(), e)));
            }
        });
        return frames;
    }

    /** The event each reader gets: the head, a removal, or nothing (null); each distinct removal is signed once. */
    private String[] events(UUID d, List<SyncReads.ReaderView> views) {
        String head = views.stream()
                .map(SyncReads.ReaderView::json)
                .filter(json -> json != null)
                .findFirst()
                .orElse(null);
        Map<Judge.Verdict, String> removals = new HashMap<>();
        String[] events = new String[views.size()];
        for (int i = 0; i < events.length; i++) {
            Judge.Verdict verdict = views.get(i).verdict();
            events[i] = switch (verdict.kind()) {
                case UPSERT -> head;
                case REMOVE ->
                    removals.computeIfAbsent(verdict, v -> context.removals().removal(d, v));
                case NOTHING -> null;
            };
        }
        return events;
    }
}
