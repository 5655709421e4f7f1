package chat.buzz.relay.incremental;

import java.util.List;

/**
 * What a delta page knows of the session before its own, for the judge's "told left": the steps it
 * judged, and this page's snapshot xmax, against which row writers' 32-bit transaction ids are widened.
 */
record PriorSession(JudgedRows judged, long xmax) {
    /**
     * The moment until which every row the steps could see, stamped after a step's start, was judged:
     * when the last step's snapshot was taken. A bootstrap's later steps judged only the heads after
     * their position, which says nothing of when a history row was stamped, so a bootstrap counts only
     * while it has one step. 0: nothing to lean on.
     */
    long toldThrough() {
        return judged.bootstrap() && judged.steps().size() > 1 ? 0 : judged.lastStepAt();
    }

    List<Long> stepMicros() {
        return judged.steps().stream().map(step -> step.after().micros()).toList();
    }

    List<String> stepSnapshots() {
        return judged.steps().stream().map(step -> step.snapshot().text()).toList();
    }
}
