package chat.buzz.relay.incremental;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.LeakOracle;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.Model.View;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RepeatedRemovals;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A {@link SyncingClient} watched page by page: every answer goes through the {@link LeakOracle}, and
 * what should never happen is counted (resets, an artifact named twice in one page, removals of what the
 * client does not hold), as well as what a good relay avoids (re-sending a head a previous session
 * already delivered).
 */
final class SteadyClient {
    final SyncingClient sync;
    final View view;
    final String label;
    private final Model model;
    private final LeakOracle oracle;
    private final RepeatedRemovals repeatedRemovals;
    final List<String> leaks = new ArrayList<>();
    int sessions;
    int pages;
    /** Artifacts that one page named more than once (PROTOCOL 4.2 allows once). */
    final List<String> namedTwiceInAPage = new ArrayList<>();

    int removalsOfWhatWasNotHeld;
    /** Heads a later session sent again while the client still held them. */
    final ResentHeads resent = new ResentHeads();
    /** Entries of the current (or last) session. */
    int sessionEntries;
    /** Writes happened while the current (or last) session was open: its end need not be exact. */
    boolean interrupted;
    /**
     * While set, answers may come from any state since the window was last opened (a standby whose
     * replay is paused answers from the past), so a page does not open a new window.
     */
    boolean answersMayLag;
    /** While answers may lag: the writer's change count they may be as old as. */
    int answersFromChange;

    SteadyClient(RelayClient relay, NostrKeys keys, Set<UUID> scope, String label, Model model, LeakOracle oracle) {
        this.sync = new SyncingClient(
                relay, keys, scope.stream().map(UUID::toString).sorted().toList());
        this.view = new View(keys.publicKeyHex(), scope);
        this.label = label;
        this.model = model;
        this.oracle = oracle;
        model.watch(view);
        this.repeatedRemovals = new RepeatedRemovals(model, view);
        sync.inspector = this::inspect;
    }

    /** One page; a page that starts a session counts it. Returns whether the session is finished. */
    boolean page(int limit) {
        if (!sync.midSession) {
            sessions++;
            interrupted = false;
            sessionEntries = 0;
        }
        // A page that may come from the past cannot end a session that must be exact.
        interrupted |= answersMayLag;
        // Nothing writes while a request runs: the state now is the state the relay answers from.
        if (!answersMayLag) {
            model.openWindow(view);
        }
        sync.page(limit);
        if (!sync.midSession) {
            repeatedRemovals.sessionFinished(interrupted);
        }
        return !sync.midSession;
    }

    private void inspect(JsonNode body) {
        // A known-ID read answers every id it is asked about (PROTOCOL 4.3), removals included.
        boolean deltaPage = body.has("cursor");
        pages++;
        sessionEntries += body.path("entries").size();
        leaks.addAll(oracle.checkQueryAnswer(view, body));
        Set<String> named = new HashSet<>();
        for (JsonNode entry : body.path("entries")) {
            String d = entry.path("d").asText();
            if (!named.add(d)) {
                namedTwiceInAPage.add(d);
            }
            if (entry.path("op").asText().equals("remove")) {
                if (!sync.store.containsKey(d)) {
                    removalsOfWhatWasNotHeld++;
                }
                String repeated = deltaPage ? repeatedRemovals.removal(d) : null;
                if (repeated != null) {
                    leaks.add(repeated);
                }
                continue;
            }
            repeatedRemovals.upsert(d);
            // An artifact that left D and came back (a re-join, say) is rightly sent again (PROTOCOL 4.2).
            resent.upsert(
                    entry,
                    sync.store.get(d),
                    sessions,
                    answersMayLag ? answersFromChange : model.changes(),
                    (left, change) -> model.leftSince(view, left, change));
        }
    }

    Map<String, String> heads() {
        return sync.heads();
    }
}
