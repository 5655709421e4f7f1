package chat.buzz.relay.testing;

import chat.buzz.relay.testing.Model.View;
import java.util.HashMap;
import java.util.Map;

/**
 * The oracle's "told left": a removal of an artifact the reader was already told left, and that has not
 * been in its D since, tells it only that a channel it may no longer read is busy (PROTOCOL 5). Each
 * such removal is a problem. A delta reader counts as told once the session that told it has finished
 * (the relay judges against the previous session); a subscriber, at once.
 */
public final class RepeatedRemovals {
    private final Model model;
    private final View view;
    /** Per artifact told it left, the model's change count when it was told. */
    private final Map<String, Integer> told = new HashMap<>();

    private final Map<String, Integer> toldThisSession = new HashMap<>();

    public RepeatedRemovals(Model model, View view) {
        this.model = model;
        this.view = view;
    }

    /** A removal of {@code d} arrived; returns the problem it is, or null. */
    public String removal(String d) {
        Integer at = told.get(d);
        toldThisSession.put(d, model.changes());
        if (at != null && !model.leftSince(view, d, at)) {
            return "a removal of " + d + ", which this reader was already told left and has not been in its D since";
        }
        return null;
    }

    /** An upsert of {@code d} arrived: the reader holds it again. */
    public void upsert(String d) {
        told.remove(d);
        toldThisSession.remove(d);
    }

    /** What the session told counts from now on. */
    public void sessionFinished() {
        told.putAll(toldThisSession);
        toldThisSession.clear();
    }
}
