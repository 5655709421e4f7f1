package chat.buzz.relay.testing;

import chat.buzz.relay.testing.Model.View;
import java.util.HashMap;
import java.util.Map;

/**
 * The oracle's "told left": a removal of an artifact the reader was already told left, and that has not
 * been in its D since, tells it only that a channel it may no longer read is busy (PROTOCOL 5). Each
 * such removal is a problem. A delta reader counts as told once the session that told it has finished
 * (the relay judges against the previous session); a subscriber, at once. A delta session right after
 * one during which others wrote is let off: what such a session judged after the writes is not in the
 * cursor (its length would tell the reader that others wrote), so the relay removes again rather than
 * risk a missed removal (docs/incremental-sync.md).
 */
public final class RepeatedRemovals {
    private final Model model;
    private final View view;
    /** Per artifact told it left, the model's change count when it was told. */
    private final Map<String, Integer> told = new HashMap<>();

    private final Map<String, Integer> toldThisSession = new HashMap<>();
    /** Per artifact, what this reader heard of it and when (the model's change count): for the report. */
    private final Map<String, StringBuilder> heard = new HashMap<>();

    private int sessions;
    private boolean afterInterruptedSession;

    public RepeatedRemovals(Model model, View view) {
        this.model = model;
        this.view = view;
    }

    /** A removal of {@code d} arrived; returns the problem it is, or null. */
    public String removal(String d) {
        Integer at = told.get(d);
        toldThisSession.put(d, model.changes());
        note(d, "remove");
        if (at != null && !afterInterruptedSession && !model.leftSince(view, d, at)) {
            return "a removal of " + d + ", which this reader was already told left and has not been in its D"
                    + " since; it heard" + heard.get(d);
        }
        return null;
    }

    private void note(String d, String op) {
        heard.computeIfAbsent(d, k -> new StringBuilder())
                .append(' ')
                .append(op)
                .append(" (session ")
                .append(sessions)
                .append(", change ")
                .append(model.changes())
                .append(')');
    }

    /** An upsert of {@code d} arrived: the reader holds it again. */
    public void upsert(String d) {
        note(d, "upsert");
        told.remove(d);
        toldThisSession.remove(d);
    }

    /** What the session told counts from now on; {@code interrupted}: others wrote while it ran. */
    public void sessionFinished(boolean interrupted) {
        afterInterruptedSession = interrupted;
        sessions++;
        told.putAll(toldThisSession);
        toldThisSession.clear();
    }
}
