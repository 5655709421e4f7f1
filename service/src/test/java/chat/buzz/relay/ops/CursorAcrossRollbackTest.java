package chat.buzz.relay.ops;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.database.Database;
import chat.buzz.relay.testing.AdminClient;
import chat.buzz.relay.testing.AdminClient.Reply;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cursor taken before `rollback-incremental` and used after migrating forward: re-running 0076/0077
 * stamps every row with its creation time, so changes made while rolled back look old. The cursor must
 * reset, and the client must end with the edits and deletions made meanwhile, not skip them as old.
 */
@IntegrationTest
class CursorAcrossRollbackTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private final RelayClient relay = RELAY.client();
    private final AdminClient olivia = new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void aCursorFromBeforeTheRollbackResetsAndDeliversWhatChangedWhileRolledBack() throws Exception {
        UUID channel = Nostr.newId();
        accept(Nostr.createChannel(owner, channel, "open"));
        UUID edited = Nostr.newId();
        Event head = accept(Nostr.revision(owner, edited, channel, "create", null, "before the rollback"));
        UUID deleted = Nostr.newId();
        Event doomed = accept(Nostr.revision(owner, deleted, channel, "create", null, "deleted while rolled back"));
        // The worst case: artifacts created long before the cursor, in a community whose policy never
        // changed (re-running 0077 then gives it back exactly the stamp the cursor holds).
        RELAY.jdbi().useHandle(h -> {
            h.execute("UPDATE artifact_heads SET created_at = created_at - INTERVAL '1 hour'");
            h.execute("UPDATE communities SET created_at = artifact_policy_modified_at");
        });
        Map<String, JsonNode> store = new HashMap<>();
        String cursor = session(null, store).cursor();
        assertThat(store).containsOnlyKeys(edited.toString(), deleted.toString());

        Reply rolledBack =
                olivia.task("rollback-incremental", Map.of("confirm", "yes", "reason", "cursor across rollback"));
        assertThat(rolledBack.status()).as(rolledBack.body()).isEqualTo(200);
        Event edit = accept(Nostr.revision(owner, edited, channel, "update", head.id(), "edited while rolled back"));
        accept(Nostr.revision(owner, deleted, channel, "delete", doomed.id(), null));
        Database.migrate(RELAY.configuration().getDataSourceFactory(), Database.CHANGELOG);
        Reply on =
                olivia.post("/api/flags", Map.of("gate", "incremental", "value", "on", "reason", "migrated forward"));
        assertThat(on.status()).as(on.body()).isEqualTo(200);

        Session after = session(cursor, store);
        assertThat(after.reset())
                .as("a cursor from before the rollback must reset")
                .isTrue();
        assertThat(store).containsOnlyKeys(edited.toString());
        assertThat(store.get(edited.toString()).get("id").asText()).isEqualTo(edit.id());
    }

    private record Session(boolean reset, String cursor) {}

    /** One delta session as the reader, applied to {@code store}, with the reset flow of PROTOCOL 4.4. */
    private Session session(String since, Map<String, JsonNode> store) {
        boolean reset = false;
        String cursor = since;
        java.util.Set<String> unconfirmed = new java.util.HashSet<>();
        boolean more = true;
        while (more) {
            ObjectNode filter = RelayClient.JSON.createObjectNode().put("artifact", "incremental");
            if (cursor != null) {
                filter.put("since", cursor);
            }
            JsonNode body = ok(relay.query(reader, "[" + filter + "]"));
            if (body.get("reset").asBoolean() && !reset) {
                reset = true;
                unconfirmed.addAll(store.keySet());
            }
            body.get("entries").forEach(entry -> apply(entry, store, unconfirmed));
            cursor = body.get("cursor").asText();
            more = body.get("more").asBoolean();
        }
        if (!unconfirmed.isEmpty()) {
            ObjectNode known = RelayClient.JSON.createObjectNode().put("artifact", "incremental");
            unconfirmed.forEach(known.putArray(Tags.FILTER_ARTIFACT_ID)::add);
            ok(relay.query(reader, "[" + known + "]"))
                    .get("entries")
                    .forEach(entry -> apply(entry, store, unconfirmed));
        }
        return new Session(reset, cursor);
    }

    private static void apply(JsonNode entry, Map<String, JsonNode> store, java.util.Set<String> unconfirmed) {
        String d = entry.get("d").asText();
        unconfirmed.remove(d);
        if (entry.get("op").asText().equals("upsert")) {
            store.put(d, entry.get("event"));
        } else {
            store.remove(d);
        }
    }

    private static JsonNode ok(RelayClient.Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    private Event accept(Event event) {
        Replies.accepted(relay.publish(owner, event));
        return event;
    }
}
