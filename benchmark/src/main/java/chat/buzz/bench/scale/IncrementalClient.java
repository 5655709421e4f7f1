package chat.buzz.bench.scale;

import chat.buzz.bench.SignedCalls;
import chat.buzz.client.Digest;
import chat.buzz.protocol.NostrKeys;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/**
 * A syncing client of PROTOCOL 4 reduced to what a policy-change benchmark needs: its store is d to
 * head id, it follows each session to {@code more: false}, applies upserts and removes, starts over on
 * {@code reset: true} (every id it holds is discoverable, so the known-ID step of 4.4 has nothing to
 * confirm), and compares its digest with the relay's digest read (4.4a). Counts the bytes it was sent.
 */
final class IncrementalClient {
    private final Reads reads;
    final NostrKeys keys;
    private final int limit;
    private final Map<String, String> store = new HashMap<>();
    private String cursor;
    long bytes;
    long resets;

    IncrementalClient(Reads reads, NostrKeys keys, int limit) {
        this.reads = reads;
        this.keys = keys;
        this.limit = limit;
    }

    /** One session from the last cursor (a bootstrap the first time) to its end. */
    void session() {
        cursor = reads.session(keys, cursor, limit, this::apply).cursor();
    }

    private void apply(SignedCalls.Reply reply) {
        bytes += reply.body().length;
        JsonNode page = reply.json();
        if (page.path("reset").asBoolean()) {
            store.clear();
            resets++;
        }
        for (JsonNode entry : page.path("entries")) {
            if (entry.path("op").asText().equals("upsert")) {
                store.put(
                        entry.path("d").asText(), entry.path("event").path("id").asText());
            } else {
                store.remove(entry.path("d").asText());
            }
        }
    }

    /** Whether the store holds exactly what the relay's digest read says D is now. */
    boolean holdsD() {
        SignedCalls.Reply reply = reads.digestHonouringRetryAfter(keys);
        bytes += reply.body().length;
        JsonNode digest = reply.json();
        return digest.path("count").asLong() == store.size()
                && digest.path("digest").asText().equals(digestOfStore());
    }

    int size() {
        return store.size();
    }

    private String digestOfStore() {
        Digest digest = new Digest();
        store.forEach(digest::add);
        return digest.hex();
    }
}
