package chat.buzz.client;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Limits;
import chat.buzz.protocol.Tags;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link SyncClient}'s fallback when the relay offers no incremental reads (PROTOCOL 4, mode
 * "current"): reads every head in the largest pages the mode allows and replaces the store with them.
 */
final class CurrentSession {
    private CurrentSession() {}

    static SessionReport run(SyncClient client) {
        List<Entry> heads = new ArrayList<>();
        int pages = 0;
        for (int offset = 0; offset <= Limits.CURRENT_MAX_OFFSET; offset += Limits.CURRENT_MAX_LIMIT) {
            ObjectNode filter = client.filter("current")
                    .put("limit", Limits.CURRENT_MAX_LIMIT)
                    .put("offset", offset);
            JsonNode answer =
                    client.backoff().run("a current read", () -> client.http().query(filter));
            pages++;
            for (JsonNode event : answer) {
                Event parsed = Event.fromJson(event);
                parsed.tag(Tags.ARTIFACT_ID)
                        .ifPresent(d -> heads.add(new Entry(
                                true, d, parsed.tag(Tags.CHANNEL).orElse(null), parsed.id(), event.toString(), null)));
            }
            client.listener().page(answer.size(), heads.size(), answer.size() == Limits.CURRENT_MAX_LIMIT);
            if (answer.size() < Limits.CURRENT_MAX_LIMIT) {
                break;
            }
        }
        client.store().replaceAll(heads, null);
        return new SessionReport("current", true, false, null, pages, heads.size(), 0, 0, heads.size(), null);
    }
}
