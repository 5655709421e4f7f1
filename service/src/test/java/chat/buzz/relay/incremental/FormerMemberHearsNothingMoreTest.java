package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A former member that was sent the removals of what it held hears nothing more of those artifacts,
 * however busy the private channel stays (PROTOCOL 5, docs/security.md), while a cursor from before the
 * removal, which may really still hold them, gets its one removal each. Everything here happens within
 * the 120-second overlap, where the floor alone would still count the artifacts as held.
 */
@IntegrationTest
class FormerMemberHearsNothingMoreTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private final Writer writer = new Writer(RELAY.client());
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    private static List<String> about(List<JsonNode> entries, UUID... ids) {
        List<String> wanted = java.util.Arrays.stream(ids).map(UUID::toString).toList();
        return entries.stream()
                .filter(entry -> wanted.contains(entry.get("d").asText()))
                .map(JsonNode::toString)
                .toList();
    }

    @Test
    void laterEditsDeletesAndRedactionsTellAToldFormerMemberNothing() {
        SyncingClient sync = new SyncingClient(RELAY.client(), reader, List.of());
        UUID secret = writer.channel(owner, "private");
        writer.addMember(owner, secret, reader);
        UUID x = writer.create(owner, secret);
        UUID y = writer.create(owner, secret);
        UUID z = writer.create(owner, secret);
        sync.session();
        assertThat(sync.store).containsKeys(x.toString(), y.toString(), z.toString());
        String beforeRemoval = sync.cursor;

        writer.removeMember(owner, secret, reader);
        List<JsonNode> told = sync.session();
        assertThat(about(told, x, y, z)).as("one removal each").hasSize(3);
        assertThat(told).allMatch(entry -> entry.get("op").asText().equals("remove"));
        assertThat(sync.store).isEmpty();

        writer.edit(owner, x, "busy");
        writer.delete(owner, y);
        writer.redactHead(owner, z);
        assertThat(about(sync.session(), x, y, z))
                .as("after the edit, delete and redaction")
                .isEmpty();
        writer.edit(owner, x, "busier");
        assertThat(about(sync.session(), x, y, z))
                .as("and in the session after")
                .isEmpty();
        assertThat(sync.resets).isZero();

        SyncingClient restored = new SyncingClient(RELAY.client(), reader, List.of());
        restored.cursor = beforeRemoval;
        List<JsonNode> stillHeld = restored.session();
        assertThat(about(stillHeld, x, y, z))
                .as("a cursor from before the removal may still hold them: one removal each")
                .hasSize(3);
        assertThat(stillHeld).allMatch(entry -> entry.get("op").asText().equals("remove"));
    }

    @Test
    void removalsSpreadOverPagesAreNotRepeatedByTheNextSession() {
        SyncingClient sync = new SyncingClient(RELAY.client(), reader, List.of());
        UUID secret = writer.channel(owner, "private");
        writer.addMember(owner, secret, reader);
        List<UUID> held = writer.createMany(owner, secret, 5);
        sync.session();

        writer.removeMember(owner, secret, reader);
        List<JsonNode> told = sync.session(2);
        assertThat(about(told, held.toArray(UUID[]::new))).hasSize(5);

        held.forEach(d -> writer.edit(owner, d, "after"));
        assertThat(about(sync.session(2), held.toArray(UUID[]::new))).isEmpty();
    }
}
