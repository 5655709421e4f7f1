package chat.buzz.relay.testing;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/** The convergence tests' one verdict: a client holds exactly D, artifact id to head, and if not, what differs. */
public final class ExactSet {
    private ExactSet() {}

    /**
     * Throws unless {@code actual} equals {@code expected}, naming the missing, extra and stale ids and,
     * for each, its whole history in the writer's story and what {@code heard} says the client was told.
     */
    public static void assertHoldsExactly(
            Map<String, String> expected,
            Map<String, String> actual,
            String who,
            String context,
            ModelWriter writer,
            Function<String, String> heard) {
        if (actual.equals(expected)) {
            return;
        }
        Set<String> missing = new TreeSet<>(expected.keySet());
        missing.removeAll(actual.keySet());
        Set<String> extra = new TreeSet<>(actual.keySet());
        extra.removeAll(expected.keySet());
        Set<String> stale = new TreeSet<>();
        expected.forEach((d, head) -> {
            if (actual.containsKey(d) && !actual.get(d).equals(head)) {
                stale.add(d);
            }
        });
        StringBuilder histories = new StringBuilder();
        for (Set<String> ids : List.of(missing, extra, stale)) {
            for (String d : ids) {
                histories.append(String.format(
                        "%n  %s: expected head %s, held %s; its history:%s%n  what %s heard of it:%s",
                        ModelWriter.shortId(d),
                        expected.get(d),
                        actual.get(d),
                        writer.historyOf(d),
                        who,
                        heard.apply(d)));
            }
        }
        throw new AssertionError(String.format(
                "%s: %s does not hold exactly D%n  missing %s%n"
                        + "  extra (kept, must be dropped) %s%n  stale head %s%s%n%s",
                context, who, shortIds(missing), shortIds(extra), shortIds(stale), histories, writer.story()));
    }

    private static List<String> shortIds(Set<String> ids) {
        return ids.stream().map(ModelWriter::shortId).toList();
    }
}
