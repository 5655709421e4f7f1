package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A bootstrap across more than two windows of heads that share one moment and hold nothing for the
 * reader: each such window is stalled (it could only continue at a head the reader may not know), so
 * the same request reads the next window of {@code EXAMINE} heads until it reaches the reader's
 * artifact after them. No cursor ever names a hidden head, and no page comes back empty for them.
 */
@IntegrationTest
class BootstrapStallTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    /** More than two whole windows of one moment: the page after the first entry stalls twice. */
    private static final int HIDDEN = 2 * IncrementalReads.EXAMINE + 500;

    /** Sort before and after every random id (PostgreSQL compares uuids as unsigned bytes). */
    private static final UUID FIRST_VISIBLE = UUID.fromString("00000000-0000-4000-8000-000000000001");

    private static final UUID LAST_VISIBLE = UUID.fromString("ffffffff-ffff-4fff-bfff-fffffffffffe");

    private static final NostrKeys OWNER = NostrKeys.generate();
    private static final NostrKeys READER = NostrKeys.generate();

    @BeforeAll
    static void seed() {
        RelayClient relay = RELAY.client();
        UUID mine = Nostr.newId();
        UUID hidden = Nostr.newId();
        Replies.accepted(relay.publish(OWNER, Nostr.createChannel(OWNER, mine, "private")));
        Replies.accepted(relay.publish(OWNER, Nostr.createChannel(OWNER, hidden, "private")));
        Replies.accepted(
                relay.publish(OWNER, Nostr.membership(OWNER, Kinds.ADD_MEMBER, mine, READER.publicKeyHex(), null)));
        for (UUID d : List.of(FIRST_VISIBLE, LAST_VISIBLE)) {
            Replies.accepted(relay.publish(OWNER, Nostr.revision(OWNER, d, mine, "create", null, "visible " + d)));
        }
        // The hidden heads go in through SQL, all at one moment, and the reader's two heads move to it.
        RELAY.jdbi().useHandle(h -> {
            h.execute("SET session_replication_role = replica");
            UnsignedHeads.insert(
                    h,
                    OWNER.publicKeyHex(),
                    hidden,
                    HIDDEN,
                    "stalled ",
                    "date_trunc('second', now()) - INTERVAL '1 hour'");
            h.createUpdate("""
                    UPDATE artifact_heads SET modified_at = (SELECT min(modified_at) FROM artifact_heads WHERE channel_id = :hidden)
                    WHERE channel_id = :mine""").bind("hidden", hidden).bind("mine", mine).execute();
            h.execute("ANALYZE artifact_heads");
        });
    }

    @Test
    void stalledWindowsAreCrossedInOneRequestWithoutNamingAHiddenHead() {
        SyncingClient client =
                new SyncingClient(RELAY.client(), READER, List.of()).openingCursors(SealedCursors.of(RELAY));

        List<JsonNode> first = client.page(null);
        assertThat(first).extracting(entry -> entry.get("d").asText()).containsExactly(FIRST_VISIBLE.toString());
        assertThat(client.midSession)
                .as("the first window ended at its horizon")
                .isTrue();

        // The next page begins inside the moment: its first two windows hold only hidden heads.
        List<JsonNode> second = client.page(null);
        assertThat(second).extracting(entry -> entry.get("d").asText()).containsExactly(LAST_VISIBLE.toString());
        assertThat(client.midSession).as("the last window reached the end").isFalse();
        assertThat(client.store.keySet()).containsExactlyInAnyOrder(FIRST_VISIBLE.toString(), LAST_VISIBLE.toString());
    }
}
