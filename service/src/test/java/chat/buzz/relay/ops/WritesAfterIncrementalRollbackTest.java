package chat.buzz.relay.ops;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real changelog, rolled back to before-incremental by the operator task while the relay runs:
 * the relay keeps accepting every kind of write (the database, not the relay, kept the change
 * stamps), and once migrated forward again incremental reads see later changes.
 */
@IntegrationTest
class WritesAfterIncrementalRollbackTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private static final List<String> STAMP_COLUMNS = List.of(
            "artifact_heads.modified_at",
            "artifact_revisions.modified_at",
            "channel_members.sync_modified_at",
            "communities.artifact_policy_modified_at");

    private final RelayClient relay = RELAY.client();
    private final AdminClient olivia = new AdminClient(RELAY.adminUrl(), AdminClient.OLIVIA);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys member = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void writesContinueAfterTheSchemaRollbackAndDeltasResumeAfterMigratingForward() throws Exception {
        UUID before = Nostr.newId();
        accept(Nostr.createChannel(owner, before, "open"));
        UUID d = Nostr.newId();
        Event head = accept(Nostr.revision(owner, d, before, "create", null, "before the rollback"));
        assertThat(stampColumns()).containsAll(STAMP_COLUMNS);
        assertThat(stampTriggers()).hasSize(4);

        Reply rolledBack =
                olivia.task("rollback-incremental", Map.of("confirm", "yes", "reason", "writes after rollback"));
        assertThat(rolledBack.status()).as(rolledBack.body()).isEqualTo(200);
        assertThat(rolledBack.json().get("schemaRolledBack").asBoolean()).isTrue();
        assertThat(stampColumns()).isEmpty();
        assertThat(stampTriggers()).isEmpty();
        assertThat(stampFunctions()).isEmpty();
        long advancesBefore = policyAdvances();

        // Every write path that used to name a stamp column, over signed HTTP, with the columns gone.
        UUID channel = Nostr.newId();
        accept(Nostr.createChannel(owner, channel, "open"));
        UUID d2 = Nostr.newId();
        Event created = accept(Nostr.revision(owner, d2, channel, "create", null, "after the rollback"));
        Event updated = accept(Nostr.revision(owner, d2, channel, "update", created.id(), "edited"));
        Event moved = accept(Nostr.revision(owner, d2, before, "move", updated.id(), "moved"));
        head = accept(Nostr.revision(owner, d, before, "update", head.id(), "edited after the rollback"));
        accept(Nostr.membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), "member"));
        accept(Nostr.membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), "admin"));
        accept(Nostr.membership(owner, Kinds.REMOVE_MEMBER, channel, member.publicKeyHex(), null));
        accept(Nostr.membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), null));
        accept(Nostr.editChannel(owner, channel, tag(Tags.VISIBILITY, "private")));
        accept(Nostr.editChannel(owner, channel, tag(Tags.CHANNEL_NAME, "renamed"), tag(Tags.TTL, "3600")));
        accept(Nostr.redact(owner, before, moved.id()));
        accept(Nostr.event(owner, Kinds.DELETE_CHANNEL, tag(Tags.CHANNEL, channel.toString())));
        String movedHead = RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT head_event_id FROM artifact_heads WHERE d = :d")
                        .bind("d", d2)
                        .mapTo(String.class)
                        .one());
        assertThat(movedHead).isEqualTo(moved.id());
        // The operations record of policy changes (a pre-tag table) still gets every cause: private, ttl, deleted.
        assertThat(policyAdvances()).isEqualTo(advancesBefore + 3);
        // The refused-policy-change counts (migration 0091) are rolled back too; the burst view still answers.
        Reply bursts = olivia.get("/api/bursts?window=hour");
        assertThat(bursts.status()).as(bursts.body()).isEqualTo(200);

        Database.migrate(RELAY.configuration().getDataSourceFactory(), Database.CHANGELOG);
        assertThat(stampColumns()).containsAll(STAMP_COLUMNS);
        assertThat(stampTriggers()).hasSize(4);
        assertThat(olivia.get("/api/migrations").json().get("pending")).isEmpty();
        Reply on =
                olivia.post("/api/flags", Map.of("gate", "incremental", "value", "on", "reason", "migrated forward"));
        assertThat(on.status()).as(on.body()).isEqualTo(200);

        String cursor = session(null).cursor();
        Event later = accept(Nostr.revision(owner, d, before, "update", head.id(), "after migrating forward"));
        Delta delta = session(cursor);
        assertThat(delta.reset()).isFalse();
        assertThat(delta.entries()).anySatisfy(entry -> {
            assertThat(entry.get("d").asText()).isEqualTo(d.toString());
            assertThat(entry.get("op").asText()).isEqualTo("upsert");
            assertThat(entry.get("event").get("id").asText()).isEqualTo(later.id());
        });
    }

    private record Delta(boolean reset, List<JsonNode> entries, String cursor) {}

    /** A delta session as the reader: follows "more" to the end. */
    private Delta session(String since) {
        List<JsonNode> entries = new ArrayList<>();
        boolean reset = false;
        String cursor = since;
        boolean more = true;
        while (more) {
            ObjectNode filter = RelayClient.JSON.createObjectNode().put("artifact", "incremental");
            if (cursor != null) {
                filter.put("since", cursor);
            }
            RelayClient.Reply reply = relay.query(reader, "[" + filter + "]");
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            JsonNode body = reply.json();
            reset |= body.get("reset").asBoolean();
            body.get("entries").forEach(entries::add);
            cursor = body.get("cursor").asText();
            more = body.get("more").asBoolean();
        }
        return new Delta(reset, entries, cursor);
    }

    private Event accept(Event event) {
        Replies.accepted(relay.publish(owner, event));
        return event;
    }

    private List<String> stampColumns() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("""
                        SELECT table_name || '.' || column_name FROM information_schema.columns
                        WHERE table_schema = 'public' AND column_name IN ('modified_at', 'sync_modified_at', 'artifact_policy_modified_at')""").mapTo(String.class).list());
    }

    private List<String> stampTriggers() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("""
                        SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgname IN ('artifact_heads_stamp_modified_at',
                            'events_stamp_redacted_head', 'channel_members_stamp_sync_modified_at', 'channels_stamp_artifact_policy')""").mapTo(String.class).list());
    }

    private List<String> stampFunctions() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("""
                        SELECT proname FROM pg_proc WHERE proname IN ('artifact_heads_stamp_modified_at',
                            'events_stamp_redacted_head', 'channel_members_stamp_sync_modified_at', 'channels_stamp_artifact_policy')""").mapTo(String.class).list());
    }

    private long policyAdvances() {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM policy_stamp_advances")
                        .mapTo(Long.class)
                        .one());
    }
}
