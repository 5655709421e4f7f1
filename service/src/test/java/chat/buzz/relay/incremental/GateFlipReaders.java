package chat.buzz.relay.incremental;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.ExactSet;
import chat.buzz.relay.testing.LeakOracle;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.Model.View;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The two kinds of reader of {@link PolicyChangeAcrossGateFlipTest}, each judged after every change: an
 * incremental client (sessions in pages of two) and a live WebSocket subscriber that subscribes again on
 * {@code sync_reset}, as PROTOCOL 5 tells clients to. Both put everything they receive through the
 * {@link LeakOracle}, count their resets, and report, rather than throw, what went wrong, so one
 * change's report names every reader it hurt.
 */
final class GateFlipReaders {
    private GateFlipReaders() {}

    /** What every reader shares: the model, its oracle and the writer whose story a failure prints. */
    record Judge(Model model, LeakOracle oracle, ModelWriter writer) {
        /** Held (d to head) against D of the model now; the verdict's text, or nothing when exact. */
        List<String> exactly(View view, Map<String, String> held, String who, String context) {
            try {
                ExactSet.assertHoldsExactly(model.discoverable(view), held, who, context, writer, d -> "");
                return List.of();
            } catch (AssertionError e) {
                return List.of(e.getMessage());
            }
        }
    }

    /**
     * An incremental client on one instance, following its cursor from session to session; a slow one
     * reads one small page per change, so its sessions span changes and flips.
     */
    static final class Incremental {
        /** Small enough that a bootstrap takes several changes, large enough that sessions end in between. */
        private static final int SLOW_PAGE = 4;

        final String label;
        final boolean slow;
        final View view;
        final SyncingClient sync;
        private final Judge judge;
        private final List<String> problems = new ArrayList<>();
        /** A change delivered as a reset came after the stamp this reader's cursor holds. */
        private boolean resetOwed;
        /** The session under way is a bootstrap (the first one, or one a reset began). */
        private boolean inBootstrap;

        Incremental(
                TestRelay relay,
                SealedCursors cursors,
                NostrKeys keys,
                Set<UUID> scope,
                boolean slow,
                String label,
                Judge judge) {
            this.label = label;
            this.slow = slow;
            this.view = new View(keys.publicKeyHex(), scope);
            this.judge = judge;
            this.sync = new SyncingClient(
                            relay.client(),
                            keys,
                            scope.stream().map(UUID::toString).sorted().toList())
                    .openingCursors(cursors);
            sync.inspector = this::inspect;
            judge.model().watch(view);
        }

        private void inspect(JsonNode body) {
            judge.oracle().checkQueryAnswer(view, body).forEach(p -> problems.add(label + ": " + p));
            if (!body.has("cursor")) {
                return; // a known-ID answer, not a page
            }
            Set<String> named = new HashSet<>();
            for (JsonNode entry : body.path("entries")) {
                if (!named.add(entry.path("d").asText())) {
                    problems.add(label + ": a page names " + entry.path("d").asText() + " twice: " + body);
                }
            }
        }

        /**
         * One whole session (nothing writes during it, so each page is judged against the state now),
         * then: resets as expected, and the store, less what only a known-ID read after a reset kept
         * (readable, not discoverable: PROTOCOL 4.2 lets a client keep it), exactly D.
         */
        List<String> session(int expectedResets, String step) {
            problems.clear();
            int before = sync.resets;
            do {
                page(2);
            } while (sync.midSession);
            checkResets(before, expectedResets, step);
            Map<String, String> discovered = new HashMap<>(sync.heads());
            discovered.keySet().removeAll(sync.confirmedByKnownId);
            problems.addAll(judge.exactly(view, discovered, label, step));
            return List.copyOf(problems);
        }

        /** A change was delivered as a reset: the stamp this reader's cursor holds is now old. */
        void stampAdvanced() {
            resetOwed = true;
        }

        /**
         * One small page, the session going on across the changes to come. A page whose cursor
         * holds an old stamp is a reset, except in a bootstrap already running: that one finishes under
         * the stamp it began with, and the session after it is the reset (docs/decisions.md). Its pages
         * are judged by the rules now, like every page. What the reader holds is judged by {@link #finish}.
         */
        List<String> onePage(String step) {
            problems.clear();
            int before = sync.resets;
            int expected = resetOwed && !inBootstrap && sync.cursor != null ? 1 : 0;
            page(SLOW_PAGE);
            checkResets(before, expected, step);
            return List.copyOf(problems);
        }

        /**
         * Small pages to the end of the running session, then one whole session (the owed reset, if
         * any); then the store must be exactly D.
         */
        List<String> finish(String step) {
            List<String> all = new ArrayList<>();
            while (sync.midSession) {
                all.addAll(onePage(step));
            }
            all.addAll(session(resetOwed ? 1 : 0, step));
            return all;
        }

        /** One page judged against the state now (nothing writes while it is read). */
        private void page(int limit) {
            boolean first = sync.cursor == null;
            int before = sync.resets;
            judge.model().openWindow(view);
            sync.page(limit);
            boolean reset = sync.resets > before;
            if (reset) {
                resetOwed = false;
            }
            inBootstrap = (first || reset || inBootstrap) && sync.midSession;
        }

        private void checkResets(int before, int expectedResets, String step) {
            int resets = sync.resets - before;
            if (resets != expectedResets) {
                problems.add(String.format(
                        "%s: %d reset page(s) after %s, expected %d", label, resets, step, expectedResets));
            }
        }
    }

    /** A live WebSocket subscriber on one instance; a quiet point is a marker it has reached. */
    static final class Live implements AutoCloseable {
        private static final String NAME = "live";
        final String label;
        final View view;
        final SyncSocket socket;
        private final Judge judge;
        private int replayed;

        Live(TestRelay relay, NostrKeys keys, Set<UUID> scope, String label, Judge judge) {
            this.label = label;
            this.view = new View(keys.publicKeyHex(), scope);
            this.judge = judge;
            judge.model().watch(view);
            judge.model().openWindow(view);
            this.socket = SyncSocket.connect(relay.baseUrl());
            socket.authenticateOk(keys);
            socket.subscribeLive(NAME, filter(scope));
        }

        /** The current subscription has sent its EOSE and holds this head (a marker written after a change). */
        boolean reached(String d, String head) {
            JsonNode event = socket.liveStore(NAME).get(d);
            return socket.liveAtEose(NAME)
                    && event != null
                    && event.path("id").asText().equals(head);
        }

        /** How many of the subscription's ids were closed with sync_reset since the last quiet point. */
        int resetsSinceQuietPoint() {
            return (int) socket.received().stream()
                    .skip(replayed)
                    .filter(Live::isSyncReset)
                    .count();
        }

        /**
         * Judges every message since the last quiet point (the oracle's window covers every state since
         * then), then: sync_reset closes as expected, no other close, the store exactly D; opens the next
         * window.
         */
        List<String> quietPoint(int expectedResets, String step) {
            List<String> problems = new ArrayList<>();
            List<JsonNode> received = socket.received();
            int resets = 0;
            for (; replayed < received.size(); replayed++) {
                JsonNode message = received.get(replayed);
                judge.oracle().checkFrame(view, message).forEach(p -> problems.add(label + ": " + p));
                if (isSyncReset(message)) {
                    resets++;
                } else if (SyncSocket.verb(message).equals("CLOSED")) {
                    problems.add(label + ": closed other than by sync_reset: " + message);
                }
            }
            if (resets != expectedResets) {
                problems.add(String.format(
                        "%s: %d sync_reset close(s) after %s, expected %d", label, resets, step, expectedResets));
            }
            Map<String, String> held = socket.liveStore(NAME).entrySet().stream()
                    .collect(Collectors.toMap(
                            Map.Entry::getKey, e -> e.getValue().path("id").asText()));
            problems.addAll(judge.exactly(view, held, label, step));
            judge.model().openWindow(view);
            return problems;
        }

        private static boolean isSyncReset(JsonNode message) {
            return SyncSocket.verb(message).equals("CLOSED")
                    && message.path(2).asText().startsWith("sync_reset:");
        }

        private static String filter(Set<UUID> scope) {
            if (scope.isEmpty()) {
                return "{\"artifact\":\"sync\"}";
            }
            return scope.stream()
                    .map(channel -> "\"" + channel + "\"")
                    .sorted()
                    .collect(Collectors.joining(",", "{\"artifact\":\"sync\",\"#h\":[", "]}"));
        }

        @Override
        public void close() {
            socket.close();
        }
    }
}
