package chat.buzz.client.cli;

import chat.buzz.client.SyncListener;
import java.io.PrintWriter;

/**
 * Progress of a long sync on stderr, redrawn in place: a bar when the total is known (a bootstrap
 * asks the relay's digest read for |D|), a running count otherwise. Silent unless enabled.
 */
final class ProgressBar implements SyncListener {
    private static final int WIDTH = 30;

    private final SyncListener notes;
    private final PrintWriter out;
    private final boolean enabled;
    private long total = -1;
    private int pages;
    private boolean drawn;
    private boolean finished;

    ProgressBar(SyncListener notes, PrintWriter out, boolean enabled) {
        this.notes = notes;
        this.out = out;
        this.enabled = enabled;
    }

    void expect(long artifacts) {
        total = artifacts;
    }

    @Override
    public void page(int entries, long entriesSoFar, boolean more) {
        pages++;
        // Only the first session is drawn: the self-check's catch-up after it would draw a stray "0/2025".
        if (!enabled || finished) {
            return;
        }
        finished = !more;
        String line;
        if (total > 0) {
            long done = Math.min(entriesSoFar, total);
            int filled = (int) (WIDTH * done / total);
            line = "[" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] " + done + "/" + total + " artifacts";
        } else {
            line = entriesSoFar + " entries, " + pages + " pages";
        }
        out.print("\r" + line + (more ? "" : "\n"));
        drawn = more;
        out.flush();
    }

    @Override
    public void note(String message) {
        if (drawn) {
            out.println();
            drawn = false;
        }
        notes.note(message);
    }
}
