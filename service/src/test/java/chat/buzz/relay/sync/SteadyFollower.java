package chat.buzz.relay.sync;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.LeakOracle;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.Model.View;
import chat.buzz.relay.testing.RepeatedRemovals;
import chat.buzz.relay.testing.SyncSocket;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A live subscriber whose frames are replayed in arrival order at each quiet point: each goes through
 * the {@link LeakOracle}, an EVENT of a revision stores the head under d, an EVENT of a removal marker drops d. Counts sync_reset
 * closes, removals of what it did not hold, and heads it was sent again while holding them.
 */
final class SteadyFollower implements AutoCloseable {
    static final String SUBSCRIPTION = "f";

    final SyncSocket client;
    final View view;
    final String label;
    private final Model model;
    private final LeakOracle oracle;
    private final RepeatedRemovals repeatedRemovals;
    final Map<String, String> store = new HashMap<>();
    final List<String> leaks = new ArrayList<>();
    private int replayed;
    int resets;
    int removalsOfWhatWasNotHeld;
    int resent;
    /** The artifacts of the heads counted in {@link #resent}, in arrival order. */
    final List<String> resentIds = new ArrayList<>();

    SteadyFollower(TestRelay relay, NostrKeys keys, Set<UUID> scope, String label, Model model, LeakOracle oracle) {
        this.view = new View(keys.publicKeyHex(), scope);
        this.label = label;
        this.model = model;
        this.oracle = oracle;
        model.watch(view);
        model.openWindow(view);
        this.repeatedRemovals = new RepeatedRemovals(model, view);
        this.client = SyncSocket.connect(relay.baseUrl());
        client.authenticateOk(keys);
        client.subscribeLive(SUBSCRIPTION, World.scopeFilter(scope));
    }

    /** Whether the live subscription holds this head (the marker of a quiet point). */
    boolean holds(String d, String head) {
        JsonNode event = client.liveStore(SUBSCRIPTION).get(d);
        return event != null && event.path("id").asText().equals(head);
    }

    /** Applies every frame received since the last call, then opens a new oracle window at this state. */
    void replay() {
        List<JsonNode> received = client.received();
        for (; replayed < received.size(); replayed++) {
            JsonNode frame = received.get(replayed);
            leaks.addAll(oracle.checkFrame(view, frame));
            String verb = SyncSocket.verb(frame);
            if (verb.equals("CLOSED") && frame.path(2).asText().startsWith("sync_reset")) {
                resets++;
            }
            if (verb.equals("EVENT") && frame.path(1).asText().equals(SUBSCRIPTION + "-0")) {
                apply(frame.get(2));
            }
        }
        model.openWindow(view);
    }

    private void apply(JsonNode event) {
        String d = SyncSocket.tag(event, Tags.ARTIFACT_ID);
        if (event.path("kind").asInt() == Kinds.ARTIFACT_REVISION) {
            if (event.path("id").asText().equals(store.get(d))) {
                resent++;
                resentIds.add(d);
            }
            store.put(d, event.path("id").asText());
            repeatedRemovals.upsert(d);
        } else {
            if (store.remove(d) == null) {
                removalsOfWhatWasNotHeld++;
            }
            String repeated = repeatedRemovals.removal(d);
            repeatedRemovals.sessionFinished(false);
            if (repeated != null) {
                leaks.add(repeated);
            }
        }
    }

    /** Every frame received that names the artifact, in arrival order: for a failure's report. */
    String framesAbout(String d) {
        StringBuilder text = new StringBuilder();
        List<JsonNode> received = client.received();
        for (int i = 0; i < received.size(); i++) {
            JsonNode frame = received.get(i);
            if (SyncSocket.verb(frame).equals("EVENT") && d.equals(SyncSocket.tag(frame.get(2), Tags.ARTIFACT_ID))) {
                JsonNode event = frame.get(2);
                text.append("\n    frame ")
                        .append(i)
                        .append(" of ")
                        .append(received.size())
                        .append(' ')
                        .append(frame.path(1).asText())
                        .append(" kind ")
                        .append(event.path("kind").asInt())
                        .append(" id ")
                        .append(event.path("id").asText(), 0, 8)
                        .append(" h ")
                        .append(SyncSocket.tag(event, Tags.CHANNEL));
            }
        }
        return text.length() == 0 ? " nothing" : text.toString();
    }

    @Override
    public void close() {
        client.close();
    }
}
