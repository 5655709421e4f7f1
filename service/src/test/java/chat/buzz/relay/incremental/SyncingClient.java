package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A client written from PROTOCOL 4 alone: it keeps a store of heads by d, follows cursors, applies
 * entries idempotently and, on a reset, revalidates what the bootstrap did not confirm.
 */
final class SyncingClient {
    private RelayClient relay;
    final NostrKeys keys;
    private final List<String> scope;
    final Map<String, JsonNode> store = new LinkedHashMap<>();
    private final Set<String> unconfirmed = new HashSet<>();
    /** Ids a known-ID read confirmed after a reset: readable, perhaps not discoverable; deltas do not follow them. */
    final Set<String> confirmedByKnownId = new HashSet<>();

    String cursor;
    /** Mid-session: the last answer said more. */
    boolean midSession;

    int resets;
    /** Every artifact id an entry ever named to this client. */
    private final Set<String> given = new HashSet<>();
    /** When set, every cursor is opened and may name only artifacts this client was given. */
    private SealedCursors sealedCursors;

    /** Sees every 200 answer (delta page or known-ID read) before its entries are applied. */
    java.util.function.Consumer<JsonNode> inspector = body -> {};

    SyncingClient(RelayClient relay, NostrKeys keys, List<String> scope) {
        this.relay = relay;
        this.keys = keys;
        this.scope = List.copyOf(scope);
    }

    /** From now on, reads through {@code other} (another instance of the same deployment), keeping its cursor. */
    SyncingClient readingThrough(RelayClient other) {
        this.relay = other;
        return this;
    }

    /** From now on, opens every cursor it receives and fails when one names an artifact it was not given. */
    SyncingClient openingCursors(SealedCursors cursors) {
        this.sealedCursors = cursors;
        return this;
    }

    /** One page; returns the entries it applied. */
    List<JsonNode> page(Integer limit) {
        ObjectNode filter = RelayClient.JSON.createObjectNode().put("artifact", "incremental");
        if (cursor != null) {
            filter.put("since", cursor);
        }
        if (!scope.isEmpty()) {
            ArrayNode h = filter.putArray(Tags.FILTER_CHANNEL);
            scope.forEach(h::add);
        }
        if (limit != null) {
            filter.put("limit", limit);
        }
        Reply reply = relay.query(keys, "[" + filter + "]");
        assertThat(reply.status()).as("delta read %s", reply).isEqualTo(200);
        JsonNode body = reply.json();
        inspector.accept(body);
        assertThat(body.get("policy").isTextual()).isTrue();
        if (body.get("reset").asBoolean()) {
            resets++;
            unconfirmed.clear();
            unconfirmed.addAll(store.keySet());
        }
        List<JsonNode> entries = new ArrayList<>();
        body.get("entries").forEach(entries::add);
        assertThat(entries.size()).isLessThanOrEqualTo(limit == null ? 100 : limit);
        entries.forEach(entry -> {
            confirmedByKnownId.remove(entry.get("d").asText());
            apply(entry);
        });
        cursor = body.get("cursor").asText();
        if (sealedCursors != null) {
            assertThat(sealedCursors.artifactIds(cursor))
                    .as("artifact ids inside the cursor that no entry ever named to this reader; last page %s", body)
                    .isSubsetOf(given);
        }
        midSession = body.get("more").asBoolean();
        if (!midSession && !unconfirmed.isEmpty()) {
            revalidate(List.copyOf(unconfirmed));
            unconfirmed.clear();
        }
        return entries;
    }

    /** Follows more to the end; returns every entry of the session. */
    List<JsonNode> session(Integer limit) {
        List<JsonNode> all = new ArrayList<>(page(limit));
        while (midSession) {
            all.addAll(page(limit));
        }
        return all;
    }

    List<JsonNode> session() {
        return session(null);
    }

    void revalidate(Collection<String> ids) {
        List<String> list = List.copyOf(ids);
        for (int from = 0; from < list.size(); from += 100) {
            for (JsonNode entry : knownIds(list.subList(from, Math.min(list.size(), from + 100)))) {
                apply(entry);
                if (entry.get("op").asText().equals("upsert")) {
                    confirmedByKnownId.add(entry.get("d").asText());
                } else {
                    confirmedByKnownId.remove(entry.get("d").asText());
                }
            }
        }
    }

    JsonNode knownIdsReply(List<String> ids) {
        ObjectNode filter = RelayClient.JSON.createObjectNode().put("artifact", "incremental");
        ArrayNode d = filter.putArray(Tags.FILTER_ARTIFACT_ID);
        ids.forEach(d::add);
        Reply reply = relay.query(keys, "[" + filter + "]");
        assertThat(reply.status()).as("known-ID read %s", reply).isEqualTo(200);
        inspector.accept(reply.json());
        return reply.json();
    }

    List<JsonNode> knownIds(List<String> ids) {
        JsonNode entries = knownIdsReply(ids).get("entries");
        assertThat(entries).hasSize(ids.size());
        List<JsonNode> list = new ArrayList<>();
        entries.forEach(list::add);
        for (int i = 0; i < ids.size(); i++) {
            assertThat(list.get(i).get("d").asText()).isEqualTo(ids.get(i));
        }
        return list;
    }

    private void apply(JsonNode entry) {
        String d = entry.get("d").asText();
        given.add(d);
        unconfirmed.remove(d);
        switch (entry.get("op").asText()) {
            case "upsert" -> {
                assertThat(entry.get("event").get("tags").toString()).contains(d);
                store.put(d, entry.get("event"));
            }
            case "remove" -> {
                assertThat(entry.get("reason").asText()).isIn("deleted", "moved", "unavailable");
                store.remove(d);
            }
            default -> throw new AssertionError("unknown op in " + entry);
        }
    }

    /** d → head event id of the store. */
    Map<String, String> heads() {
        Map<String, String> heads = new LinkedHashMap<>();
        store.forEach((d, event) -> heads.put(d, event.get("id").asText()));
        return heads;
    }
}
