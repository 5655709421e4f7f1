package chat.buzz.relay.sync;

import chat.buzz.relay.changes.Change;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The subscriptions of an instance that one change concerns, as the fan-out judges them: those live
 * with a floor, by the distinct reader each is judged as (one query row per reader, however many
 * subscriptions share it), and those still streaming their snapshot, which judge the change themselves
 * after EOSE.
 *
 * @param readers each distinct reader and its index in {@link #judged}
 * @param live    each live subscription and the index of its reader
 * @param alone   the subscriptions that judge the change themselves
 */
record Audience(
        Map<SyncStatements.Judging, Integer> readers, Map<Subscription, Integer> live, List<Subscription> alone) {
    /** An event judged for a reader, before it is framed for a subscription id. */
    record Judged(UUID d, String event, boolean removal) {}

    static Audience of(Change change, List<Subscription> subscriptions) {
        Audience audience = new Audience(new LinkedHashMap<>(), new LinkedHashMap<>(), new ArrayList<>());
        for (Subscription subscription : subscriptions) {
            if (!subscription.concerns(change)) {
                continue;
            }
            SyncStatements.Judging judging = subscription.judging();
            if (judging == null) {
                audience.alone.add(subscription);
            } else {
                audience.live.put(
                        subscription, audience.readers.computeIfAbsent(judging, j -> audience.readers.size()));
            }
        }
        return audience;
    }

    /** The distinct readers, in index order. */
    List<SyncStatements.Judging> judged() {
        return List.copyOf(readers.keySet());
    }

    /** Every subscription gets the bare change and judges it itself. */
    Runnable eachJudgesAlone(Change change) {
        return () -> {
            alone.forEach(s -> s.offer(change));
            live.keySet().forEach(s -> s.offer(change));
        };
    }

    /**
     * Hands each live subscription what was judged for its reader ({@code judged}, by reader index; a
     * subscription with nothing to hear gets not a word), after the bare change to those judging alone.
     * Frames are rendered now, on the judging thread: once per distinct subscription id and event, so
     * subscribers that share an id (most clients use the same one) share one string, byte for byte what
     * each would have rendered itself. The returned step only queues.
     */
    Runnable handOut(Change change, List<List<Judged>> judged) {
        Map<Subscription, List<BulkStream.Framed>> framed = framed(judged);
        return () -> {
            alone.forEach(s -> s.offer(change));
            framed.forEach((subscription, frames) -> subscription.offer(change, frames));
        };
    }

    private Map<Subscription, List<BulkStream.Framed>> framed(List<List<Judged>> judged) {
        Map<String, Map<String, String>> rendered = new HashMap<>();
        Map<Subscription, List<BulkStream.Framed>> frames = new LinkedHashMap<>();
        live.forEach((subscription, reader) -> {
            List<Judged> events = judged.get(reader);
            if (events.isEmpty()) {
                return;
            }
            Map<String, String> forId = rendered.computeIfAbsent(subscription.id(), id -> new IdentityHashMap<>());
            frames.put(
                    subscription,
                    events.stream()
                            .map(event -> new BulkStream.Framed(
                                    event.d(),
                                    forId.computeIfAbsent(event.event(), e -> Frames.event(subscription.id(), e)),
                                    event.removal()))
                            .toList());
        });
        return frames;
    }
}
