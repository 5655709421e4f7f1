package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import chat.buzz.bench.Timings;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The steps {@link PolicyChange} takes against the relay: what the relay says it does with a policy
 * change, the change itself, every client's step on the pool, and waiting for the subscribers.
 */
final class PolicyChangeSteps {
    private PolicyChangeSteps() {}

    /** NIP-11 {@code policy_changes} (PROTOCOL 6): what this relay says it does; a relay without it resets. */
    static String policyMode(SignedCalls calls) throws Exception {
        HttpResponse<String> info = calls.http().send(calls.information(), HttpResponse.BodyHandlers.ofString());
        JsonNode mode = SignedCalls.JSON
                .readTree(info.body())
                .path("artifacts")
                .path("incremental")
                .path("policy_changes");
        return mode.isMissingNode() ? "reset" : mode.asText();
    }

    /** Until every subscriber holds the expected D or the deadline: each one's time from the change. */
    static Timings awaitSubscribers(List<SyncSubscriber> subscribers, JsonNode expected, long begin, long deadline)
            throws InterruptedException {
        Timings times = new Timings();
        List<SyncSubscriber> waiting = new ArrayList<>(subscribers);
        String digest = expected.path("digest").asText();
        long count = expected.path("count").asLong();
        while (!waiting.isEmpty() && System.nanoTime() < deadline) {
            for (int i = waiting.size() - 1; i >= 0; i--) {
                if (waiting.get(i).holds(digest, count)) {
                    times.add(System.nanoTime() - begin);
                    waiting.remove(i);
                }
            }
            TimeUnit.MILLISECONDS.sleep(20); // polling the subscribers' stores, bounded by the deadline
        }
        return times;
    }

    /** A 9002 edit (PROTOCOL 3.1): the channel's visibility becomes private. */
    static String makePrivate(NostrKeys owner, UUID channel) {
        return owner.sign(
                        Kinds.EDIT_CHANNEL,
                        System.currentTimeMillis() / 1000,
                        List.of(List.of(Tags.CHANNEL, channel.toString()), List.of(Tags.VISIBILITY, "private")),
                        "")
                .toJson();
    }

    interface Step {
        void run(IncrementalClient client);
    }

    /** Every client's step on the pool (4 threads: the relay's default incremental bulkhead), all awaited. */
    static void each(ExecutorService pool, List<IncrementalClient> clients, Step step) throws Exception {
        List<Future<?>> running = new ArrayList<>();
        for (IncrementalClient client : clients) {
            running.add(pool.submit(() -> step.run(client)));
        }
        for (Future<?> one : running) {
            one.get();
        }
    }

    /** Between a client's rounds: a client polls, it does not spin. */
    static boolean pause() {
        try {
            TimeUnit.MILLISECONDS.sleep(100);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
