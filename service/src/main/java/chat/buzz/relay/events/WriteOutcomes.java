package chat.buzz.relay.events;

import chat.buzz.protocol.ErrorCodes;
import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Write replies counted by how they ended ({@code buzz.events.outcome.<outcome>}): accepted, duplicate,
 * or the contract's rejection prefix. A fixed set, so a scrape never grows a series per message.
 */
final class WriteOutcomes {
    private static final String OTHER = "other";
    private static final Map<String, String> PREFIXES = Map.of(
            ErrorCodes.DUPLICATE_PREFIX, "duplicate",
            ErrorCodes.INVALID_PREFIX, "invalid",
            ErrorCodes.BLOCKED_PREFIX, "blocked",
            ErrorCodes.CONFLICT_PREFIX, "conflict",
            ErrorCodes.RATE_LIMITED_PREFIX, "rate-limited",
            ErrorCodes.UNAVAILABLE_PREFIX, "unavailable");

    private final Map<String, Counter> counters = new LinkedHashMap<>();

    WriteOutcomes(MetricRegistry metrics) {
        for (String outcome : new String[] {"accepted", OTHER}) {
            counters.put(outcome, metrics.counter(name(outcome)));
        }
        PREFIXES.values().forEach(outcome -> counters.put(outcome, metrics.counter(name(outcome))));
    }

    static String name(String outcome) {
        return MetricRegistry.name("buzz", "events", "outcome", outcome);
    }

    void count(EventReply reply) {
        counters.get(outcome(reply)).inc();
    }

    private static String outcome(EventReply reply) {
        String message = reply.message() == null ? "" : reply.message();
        for (Map.Entry<String, String> prefix : PREFIXES.entrySet()) {
            if (message.startsWith(prefix.getKey())) {
                return prefix.getValue();
            }
        }
        return reply.accepted() ? "accepted" : OTHER;
    }
}
