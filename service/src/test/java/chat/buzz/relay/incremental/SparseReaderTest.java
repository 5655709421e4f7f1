package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A reader who sees 1 in 1,000 artifacts of a 200,000-artifact community: every
 * page must answer within the statement budget and make progress, so bootstrap and deltas end, with
 * exactly what the reader may see and nothing else named.
 */
@IntegrationTest
class SparseReaderTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private static final int HIDDEN = 199_800;
    private static final int VISIBLE = 200;

    private static final NostrKeys OWNER = NostrKeys.generate();
    private static final NostrKeys READER = NostrKeys.generate();
    private static final Set<String> visible = new HashSet<>();
    private static UUID hiddenChannel;

    @BeforeAll
    static void seed() {
        RelayClient relay = RELAY.client();
        UUID mine = Nostr.newId();
        hiddenChannel = Nostr.newId();
        Replies.accepted(relay.publish(OWNER, Nostr.createChannel(OWNER, mine, "private")));
        Replies.accepted(relay.publish(OWNER, Nostr.createChannel(OWNER, hiddenChannel, "private")));
        Replies.accepted(
                relay.publish(OWNER, Nostr.membership(OWNER, Kinds.ADD_MEMBER, mine, READER.publicKeyHex(), null)));
        for (int i = 0; i < VISIBLE; i++) {
            UUID d = Nostr.newId();
            Event created = Nostr.revision(OWNER, d, mine, "create", null, "visible " + i);
            Replies.accepted(relay.publish(OWNER, created));
            visible.add(d.toString());
        }
        // The hidden bulk goes in through SQL, and the reader's artifacts are spread through it in
        // change order, so that every stretch of the community is sparse.
        RELAY.jdbi().useHandle(h -> {
            h.execute("SET session_replication_role = replica");
            UnsignedHeads.insert(
                    h,
                    OWNER.publicKeyHex(),
                    hiddenChannel,
                    HIDDEN,
                    "hidden ",
                    "now() - INTERVAL '1 hour' + g * INTERVAL '10 ms'");
            h.createUpdate("""
                    UPDATE artifact_heads SET modified_at = now() - INTERVAL '1 hour' + random() * :n * INTERVAL '10 ms'
                    WHERE channel_id = :channel""").bind("channel", mine).bind("n", HIDDEN).execute();
            h.execute("ANALYZE artifact_heads");
        });
    }

    @Test
    void bootstrapAndDeltasEndWithExactlyWhatTheReaderSees() {
        SyncingClient client = new SyncingClient(RELAY.client(), READER, List.of());
        int pages = 0;
        boolean sawAnEmptyPageWithMore = false;
        do {
            List<JsonNode> entries = client.page(null);
            sawAnEmptyPageWithMore |= entries.isEmpty() && client.midSession;
            pages++;
        } while (client.midSession);
        assertThat(client.store.keySet()).isEqualTo(visible);
        // A page that looked at its share of rows answers with what it found, even nothing.
        assertThat(sawAnEmptyPageWithMore).isTrue();
        assertThat(pages).isGreaterThanOrEqualTo((HIDDEN + VISIBLE) / IncrementalReads.EXAMINE);

        // Every hidden artifact changes: the delta examines them all, and names none of them.
        RELAY.jdbi()
                .useHandle(h -> h.createUpdate("UPDATE artifact_heads SET type = type WHERE channel_id = :channel")
                        .bind("channel", hiddenChannel)
                        .execute());
        List<JsonNode> delta = client.session();
        assertThat(delta)
                .allSatisfy(entry -> assertThat(visible).contains(entry.get("d").asText()));
        assertThat(client.store.keySet()).isEqualTo(visible);
    }
}
