package chat.buzz.relay.incremental;

import chat.buzz.relay.access.Overlap;
import chat.buzz.relay.auth.Caller;
import chat.buzz.relay.database.ReadNodes;
import chat.buzz.relay.database.ReadPlacement;
import chat.buzz.relay.database.ReadTransaction;
import chat.buzz.relay.gate.Gate;
import chat.buzz.relay.gate.Gates;
import chat.buzz.relay.incremental.Cursor.Phase;
import chat.buzz.relay.incremental.Cursor.Position;
import chat.buzz.relay.incremental.IncrementalRequest.Delta;
import chat.buzz.relay.incremental.IncrementalRequest.Digest;
import chat.buzz.relay.incremental.IncrementalRequest.KnownIds;
import chat.buzz.relay.query.IncrementalMode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;

/**
 * Mode "incremental" of POST /query (PROTOCOL 4.1–4.5, with the digest read of 4.4a). Order of work: gate, request and cursor
 * checks (no database), the bulkhead, then one read-only snapshot with a statement budget.
 */
public final class IncrementalReads implements IncrementalMode {
    /**
     * Candidate rows a page looks at, at most, before it answers (with {@code more} if it stopped
     * there): a reader who sees little of a large community still gets pages within the budget.
     */
    static final int EXAMINE = 2000;

    private final ReadTransaction transaction;
    private final Gates gates;
    private final CursorCodec cursors;
    private final ReadCapacity capacity;
    private final IncrementalReadStatistics statistics;
    private final Overlap overlap;

    public IncrementalReads(
            ReadNodes nodes,
            Gates gates,
            CursorCodec cursors,
            ReadCapacity capacity,
            IncrementalReadStatistics statistics,
            IncrementalConfig config) {
        this.transaction = new ReadTransaction(
                nodes, ReadTransaction.Isolation.REPEATABLE_READ, config.getStatementBudgetMillis());
        this.gates = gates;
        this.cursors = cursors;
        this.capacity = capacity;
        this.statistics = statistics;
        this.overlap = config.overlap();
    }

    @Override
    public Response databaseUnavailable(int retryAfterSeconds) {
        return IncrementalError.databaseUnavailable(retryAfterSeconds).response();
    }

    @Override
    public Response read(Caller caller, ObjectNode filter) {
        if (!gates.isEnabled(Gate.INCREMENTAL)) {
            throw IncrementalError.unavailable();
        }
        IncrementalRequest request = IncrementalRequest.parse(filter);
        Object answer;
        if (request instanceof Delta delta) {
            Optional<Cursor> since = delta.since().map(text -> boundCursor(text, caller, delta));
            // A page runs where the client's previous page ran or further on, so it never reads back in time.
            ReadPlacement placement = since.map(cursor -> ReadPlacement.atLeast(cursor.replayPosition()))
                    .orElse(ReadPlacement.ANY);
            answer = guarded(caller, placement, handle -> delta(handle, caller, delta, since));
        } else if (request instanceof Digest digest) {
            // Compared with the client's own store, which holds its confirmed writes.
            answer = guarded(caller, ReadPlacement.READ_YOUR_WRITES, handle -> digest(handle, caller, digest));
        } else {
            KnownIds known = (KnownIds) request;
            // How a client confirms its own write (PROTOCOL 4.3): it must see it, wherever the read runs.
            answer = guarded(caller, ReadPlacement.READ_YOUR_WRITES, handle -> knownIds(handle, caller, known));
        }
        return Response.ok(answer, MediaType.APPLICATION_JSON_TYPE).build();
    }

    private Cursor boundCursor(String text, Caller caller, Delta delta) {
        Cursor cursor = cursors.decode(text);
        if (cursor.community() != caller.community().id()
                || !Arrays.equals(cursor.reader(), CursorCodec.readerDigest(caller.pubkey()))
                || !Arrays.equals(cursor.scope(), CursorCodec.scopeDigest(delta.scope()))) {
            throw IncrementalError.cursorMismatch(
                    "the cursor belongs to another reader, community or scope; start again without since");
        }
        return cursor;
    }

    private DeltaPage delta(Handle handle, Caller caller, Delta request, Optional<Cursor> since) {
        IncrementalQueries queries =
                new IncrementalQueries(handle, caller.community().id(), caller.pubkey());
        ReadSnapshot snapshot = queries.snapshot();
        PolicyStamp policy = snapshot.policy();
        if (snapshot.onStandby()) {
            since.ifPresent(cursor -> refuseOlderPolicy(cursor.policy(), policy));
        }
        if (request.scoped()) {
            queries.firstTtlChannel(request.scope()).ifPresent(channel -> {
                throw IncrementalError.ttlChannel(channel);
            });
        }
        SessionStep step = SessionStep.plan(since, policy, snapshot, overlap);
        PageWalk walk = step.phase() == Phase.BOOTSTRAP
                ? bootstrapPage(queries, request, step, snapshot)
                : deltaPage(queries, request, step, snapshot);
        JudgedRows judged = judgedAfter(queries, step, walk, snapshot);
        // A finished session resumes from the moment it began, never later: whatever committed during
        // it with an earlier stamp is still within the next session's overlap.
        Cursor next = new Cursor(
                caller.community().id(),
                CursorCodec.readerDigest(caller.pubkey()),
                CursorCodec.scopeDigest(request.scope()),
                step.policy(),
                walk.more() ? step.phase() : Phase.FINISHED,
                step.sessionStart(),
                step.floor(),
                step.prior(),
                judged,
                walk.more() ? walk.resumeAfter() : Position.before(step.sessionStart()),
                Math.max(
                        snapshot.replayPosition(),
                        since.map(Cursor::replayPosition).orElse(0L)));
        if (step.reset()) {
            statistics.resetServed(caller.community().id());
        }
        countPolicyChangeEntries(caller.community().id(), walk);
        return new DeltaPage(walk.entries(), cursors.encode(next), walk.more(), policy.wire(), step.reset());
    }

    /**
     * A standby that has not replayed the policy stamp the client's cursor holds would answer with an
     * older policy, a reset backwards: the primary reads instead. A stamp of another epoch on a standby is
     * the same case (a restore or failover the standby has not caught up with).
     */
    private static void refuseOlderPolicy(PolicyStamp held, PolicyStamp seen) {
        if (seen.epoch() != held.epoch() || seen.micros() < held.micros()) {
            throw new ReadTransaction.StandbyBehind("the standby's policy stamp is older than the cursor's");
        }
    }

    /** The entries of this page that a policy change delivered as entries gave, per change (its moment). */
    private void countPolicyChangeEntries(long community, PageWalk walk) {
        walk.delivered().stream()
                .filter(row -> row.position().source() == DeltaCandidates.SETTINGS_SOURCE)
                .collect(Collectors.groupingBy(
                        row -> row.position().micros(), Collectors.mapping(ChangeRow::d, Collectors.toSet())))
                .forEach((micros, ds) -> statistics.policyChangeEntriesSent(community, micros, ds.size()));
    }

    /**
     * What the session has judged once this page is answered. A page whose rows the session's last step
     * could already see adds nothing; one that delivered a row written since (a write committed while
     * the session was paused, say) adds a step from where it began, so the next session does not send
     * that row again. A bootstrap page also adds one when the reader's memberships changed since: it
     * read its heads with the change in effect; so does a channel policy change.
     */
    private JudgedRows judgedAfter(IncrementalQueries queries, SessionStep step, PageWalk walk, ReadSnapshot snapshot) {
        JudgedRows judged = step.judged();
        TxSnapshot now = snapshot.snapshot();
        if (judged.steps().isEmpty() || judged.last().equals(now)) {
            return judged;
        }
        boolean unseen = walk.delivered().stream().anyMatch(row -> !judged.covers(row.position(), row.xid()));
        if (!unseen && step.phase() == Phase.BOOTSTRAP) {
            unseen = queries.candidates()
                    .accessChangedUnseen(judged.last(), now.xmax(), overlap.windowStart(step.sessionStart()));
        }
        return unseen ? judged.extendedBy(step.after(), now, snapshot.nowMicros()) : judged;
    }

    /**
     * A page that came back short either reached the end or stopped at its {@code EXAMINE} rows; only
     * then is the horizon worth a query, and the next page continues after it. Every window looks at
     * {@code EXAMINE} heads, the first as much as those after a stall: a window only stalls when that
     * many heads of one moment hold nothing for the reader, and it already looked as far as any page may.
     */
    private static PageWalk bootstrapPage(
            IncrementalQueries queries, Delta request, SessionStep step, ReadSnapshot snapshot) {
        int fetch = request.limit() + 1;
        return movingOn(step.after(), EXAMINE, (from, examine) -> {
            PageWalk walk = queries.bootstrapHeads()
                    .page(request.scope(), from, snapshot.snapshot().xmax(), fetch, examine)
                    .withIterator(rows -> PageWalk.of(rows, request.limit(), fetch, step.after()));
            return walk.more()
                    ? walk
                    : walk.orUpTo(queries.bootstrapHeads().horizon(request.scope(), from, examine), step.after());
        });
    }

    /**
     * Keys first: after no change that one index range is the whole page. A page judges at most
     * {@code fetch} candidates; when more were found, it continues after the last one it judged, so no
     * second query looks for its horizon. A window that stalls is followed by windows of
     * {@code EXAMINE} candidates.
     */
    private static PageWalk deltaPage(
            IncrementalQueries queries, Delta request, SessionStep step, ReadSnapshot snapshot) {
        // Room for the repeats a page drops: an artifact can be a candidate of both sources.
        int first = 2 * request.limit() + 1;
        return movingOn(step.after(), first, (from, fetch) -> {
            DeltaWindow window =
                    new DeltaWindow(from, step.prior(), snapshot.snapshot().xmax(), step.floor());
            List<DeltaCandidates.Candidate> candidates = queries.candidates().next(request.scope(), window, fetch + 1);
            if (candidates.isEmpty()) {
                return PageWalk.of(Collections.emptyIterator(), request.limit(), fetch, step.after());
            }
            List<DeltaCandidates.Candidate> judged = candidates.subList(0, Math.min(candidates.size(), fetch));
            PriorSession prior =
                    new PriorSession(step.prior(), snapshot.snapshot().xmax());
            PageWalk walk = queries.delta(request.scope(), judged, step.floor(), prior, fetch)
                    .withIterator(rows -> PageWalk.of(rows, request.limit(), fetch, step.after()));
            return walk.more() || candidates.size() == judged.size()
                    ? walk
                    : walk.orUpTo(Optional.of(judged.get(judged.size() - 1).position()), step.after());
        });
    }

    /**
     * Walks windows from {@code start} until one gives a page that can be answered: a {@link PageWalk#stalled}
     * window (rows of one moment and source, none an entry) would put the id of an artifact the reader
     * heard nothing of into its cursor, so the next window is judged in this request, from that row on.
     * The first window is {@code firstWindow} rows; every later one {@code EXAMINE}, as many as a page
     * may look at, so a stretch of rows that holds nothing for the reader is crossed in few queries.
     * Each window begins strictly later than the one before, so the walk ends.
     */
    private static PageWalk movingOn(Position start, int firstWindow, WindowRead read) {
        PageWalk walk = read.from(start, firstWindow);
        while (walk.stalled()) {
            walk = read.from(walk.resumeAfter(), EXAMINE);
        }
        return walk;
    }

    /** One window of a page: at most {@code window} rows looked at from {@code from}. */
    @FunctionalInterface
    private interface WindowRead {
        PageWalk from(Position from, int window);
    }

    private KnownIdRead knownIds(Handle handle, Caller caller, KnownIds request) {
        IncrementalQueries queries =
                new IncrementalQueries(handle, caller.community().id(), caller.pubkey());
        PolicyStamp policy = queries.policyStamp();
        return new KnownIdRead(
                queries.knownIds(request.ids()).stream().map(KnownIdRow::entry).toList(), policy.wire());
    }

    private DigestRead digest(Handle handle, Caller caller, Digest request) {
        IncrementalQueries queries =
                new IncrementalQueries(handle, caller.community().id(), caller.pubkey());
        PolicyStamp policy = queries.policyStamp();
        if (request.scoped()) {
            queries.firstTtlChannel(request.scope()).ifPresent(channel -> {
                throw IncrementalError.ttlChannel(channel);
            });
        }
        DigestRow row = queries.digest(request.scope());
        return new DigestRead(row.count(), row.hex(), policy.wire());
    }

    private <T> T guarded(Caller caller, ReadPlacement placement, HandleCallback<T, RuntimeException> read) {
        long community = caller.community().id();
        return capacity.withPermit(caller.pubkey(), () -> inSnapshot(community, placement, read))
                .orElseThrow(() -> {
                    statistics.capacityRejected(community);
                    return IncrementalError.capacity(capacity.retryAfterSeconds());
                });
    }

    /** One snapshot for the whole page, so the policy stamp and the rows it answers agree. */
    private <T> T inSnapshot(long community, ReadPlacement placement, HandleCallback<T, RuntimeException> read) {
        try {
            return transaction.run(placement, read);
        } catch (ReadTransaction.OverBudget e) {
            statistics.timedOut(community);
            throw IncrementalError.timeout();
        }
    }
}
