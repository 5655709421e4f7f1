package chat.buzz.relay.sync;

import chat.buzz.protocol.ErrorCodes;
import chat.buzz.relay.access.Judge;
import chat.buzz.relay.changes.Change;
import chat.buzz.relay.changes.PolicyChangeDirection;
import chat.buzz.relay.gate.Gate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands every committed change to this instance's subscriptions in the order the listener heard
 * them. A head change is judged for all live subscriptions of its community in one query (one row
 * per distinct reader, scope and floor), so the cost of a write grows with the number of subscribers
 * by a row, not by a query; a channel policy change delivered as entries is judged the same way, one
 * query per way it can go, unless the channel is too large to judge whole. Several changes may be
 * judged at once, on the judging threads, but each change's frames are handed to the subscriptions
 * only after the previous change's. From the moment a change is heard until it is handed out it
 * counts as live work ({@link LiveDemand}): the stream workers narrow while it is judged. A subscription still streaming its snapshot has no floor yet: it
 * gets the bare change and judges it itself after EOSE, as before.
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
        long heard = System.nanoTime();
        LiveDemand demand = context.workers().liveDemand();
        CompletableFuture<Runnable> judged;
        demand.arrived();
        try {
            judged = CompletableFuture.supplyAsync(() -> judge(change), judges);
        } catch (RejectedExecutionException e) {
            demand.done();
            LOG.debug("Sync fan-out is shutting down; a change was dropped", e);
            return;
        }
        context.metrics().fanoutQueued();
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
                    context.metrics().handedOut(System.nanoTime() - heard);
                    // After the hand-out: the live tasks it queued already count, so streams stay narrow.
                    demand.done();
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
            case POLICY -> () -> subscriptions.forEach(s -> s.close(ErrorCodes.SYNC_RESET_POLICY_CHANGED));
            // Each subscription whose scope holds the channel judges the channel's artifacts itself.
            case MEMBER -> () -> subscriptions.forEach(s -> s.offer(change));
            case SETTINGS -> {
                Change told = change.withDirection(direction(change));
                yield forAudience(told, subscriptions, audience -> settingsChanged(told, audience));
            }
            case HEAD -> forAudience(change, subscriptions, audience -> headChanged(change, audience));
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

    /**
     * The change judged by {@code judge} for the live subscriptions it concerns; with the sync gate off
     * (each subscription notices the gate when it applies the change, and ends) or with no live
     * subscription concerned, each gets the bare change.
     */
    private Runnable forAudience(Change change, List<Subscription> subscriptions, Function<Audience, Runnable> judge) {
        if (!context.gates().isEnabled(Gate.SYNC)) {
            return () -> subscriptions.forEach(s -> s.offer(change));
        }
        Audience audience = Audience.of(change, subscriptions);
        return audience.live().isEmpty() ? audience.eachJudgesAlone(change) : judge.apply(audience);
    }

    private Runnable headChanged(Change change, Audience audience) {
        List<List<Audience.Judged>> judged;
        try {
            List<SyncStatements.ReaderView> views =
                    context.reads().headForReaders(change.community(), change.d(), audience.judged());
            judged = views.isEmpty()
                    ? Collections.nCopies(audience.readers().size(), List.of())
                    : events(change.d(), views);
        } catch (RuntimeException e) {
            // Each subscription judges the change alone and ends the way its own failure says.
            LOG.warn("Sync fan-out could not judge a change for all subscribers at once", e);
            return audience.eachJudgesAlone(change);
        }
        return audience.handOut(change, judged);
    }

    /**
     * A channel's settings changed and the change is delivered as entries (PROTOCOL 4.4, 5). When the
     * channel is small enough that every concerned reader's entries together stay under
     * {@code sync.policyChangeEntriesAtOnce}, two queries judge it for all of them (what entered each one's D,
     * what left it) and each subscription streams what it was handed; a larger channel is streamed by
     * each subscription in keyset chunks of its own, so no page of it is ever held whole.
     */
    private Runnable settingsChanged(Change change, Audience audience) {
        List<SyncStatements.Judging> readers = audience.judged();
        int whole = Math.max(1, context.config().getPolicyChangeEntriesAtOnce() / readers.size());
        List<List<Audience.Judged>> judged;
        try {
            if (context.reads().channelHeadsUpTo(change.channel(), whole + 1) > whole) {
                return audience.eachJudgesAlone(change);
            }
            judged = judgeSettings(change, readers);
        } catch (RuntimeException e) {
            LOG.warn("Sync fan-out could not judge a policy change for all subscribers at once", e);
            return audience.eachJudgesAlone(change);
        }
        return audience.handOut(change, judged);
    }

    /**
     * Per reader, in order: the artifacts the change brought into its D (upserts), then those it took
     * out (removals, each distinct one signed once), as a subscription's own stream would send them.
     */
    private List<List<Audience.Judged>> judgeSettings(Change change, List<SyncStatements.Judging> readers) {
        List<List<Audience.Judged>> judged = new ArrayList<>(readers.size());
        readers.forEach(reader -> judged.add(new ArrayList<>()));
        PolicyChangeDirection direction = PolicyChangeDirection.orBoth(change.direction());
        if (direction.mayAdd()) {
            List<SyncStatements.ReadersView> entered =
                    context.reads().enteredForReaders(change.community(), change.settings(), change.channel(), readers);
            Map<UUID, String> heads = new HashMap<>();
            entered.stream()
                    .filter(row -> row.view().json() != null)
                    .forEach(row -> heads.put(row.view().d(), row.view().json()));
            entered.forEach(row -> judged.get(row.reader())
                    .add(new Audience.Judged(
                            row.view().d(), heads.get(row.view().d()), false)));
        }
        if (direction.mayRemove()) {
            Map<SyncStatements.ReaderView, String> removals = new HashMap<>();
            context.reads()
                    .leftAtChangeForReaders(change.community(), change.settings(), change.channel(), readers)
                    .forEach(row -> judged.get(row.reader())
                            .add(new Audience.Judged(
                                    row.view().d(),
                                    removals.computeIfAbsent(
                                            row.view(), v -> context.removals().removal(v.d(), v.verdict())),
                                    true)));
        }
        return judged;
    }

    /** The event each reader gets: the head, a removal, or nothing (none); each distinct removal is signed once. */
    private List<List<Audience.Judged>> events(UUID d, List<SyncStatements.ReaderView> views) {
        String head = views.stream()
                .map(SyncStatements.ReaderView::json)
                .filter(json -> json != null)
                .findFirst()
                .orElse(null);
        Map<Judge.Verdict, String> removals = new HashMap<>();
        List<List<Audience.Judged>> events = new ArrayList<>(views.size());
        for (SyncStatements.ReaderView view : views) {
            Judge.Verdict verdict = view.verdict();
            events.add(
                    switch (verdict.kind()) {
                        case UPSERT -> List.of(new Audience.Judged(d, head, false));
                        case REMOVE ->
                            List.of(new Audience.Judged(
                                    d,
                                    removals.computeIfAbsent(
                                            verdict, v -> context.removals().removal(d, v)),
                                    true));
                        case NOTHING -> List.of();
                    });
        }
        return events;
    }
}
