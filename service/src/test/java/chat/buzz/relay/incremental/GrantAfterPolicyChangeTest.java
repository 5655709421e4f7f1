package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With policy changes as entries (gate scoped_policy on), a membership change that changes nobody's D
 * sends nothing (PROTOCOL 4.2: a relay should not re-send what the previous session delivered
 * unchanged), also in a channel whose policy changed a moment before. Found by
 * {@link SteadyEntriesConvergencePropertyTest}: a reader added to a channel just made open and listed
 * was sent all its artifacts again.
 */
@IntegrationTest
class GrantAfterPolicyChangeTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    private final Writer writer = new Writer(RELAY.client());
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void aGrantInAListedChannelSendsNothing() {
        UUID channel = writer.channel(owner, "open");
        UUID d = writer.create(owner, channel);
        SyncingClient sync = new SyncingClient(RELAY.client(), reader, List.of());
        assertThat(sync.session()).extracting(e -> e.get("d").asText()).contains(d.toString());

        writer.addMember(owner, channel, reader);

        assertThat(sync.session()).as("a grant that changes no D").isEmpty();
    }

    @Test
    void aGrantInAChannelJustMadeOpenSendsNothing() {
        UUID channel = writer.channel(owner, "private");
        UUID d = writer.create(owner, channel);
        SyncingClient sync = new SyncingClient(RELAY.client(), reader, List.of());
        sync.session();
        writer.editChannel(owner, channel, tag(Tags.VISIBILITY, "open"));
        assertThat(sync.session())
                .as("the policy change brings the artifact")
                .extracting(e -> e.get("d").asText())
                .containsExactly(d.toString());

        writer.addMember(owner, channel, reader);
        List<JsonNode> entries = sync.session();

        assertThat(entries)
                .as("a grant in a channel made open (and listed) before the previous session changes no D")
                .isEmpty();
        assertThat(sync.resets).isZero();
    }

    /**
     * The membership row shows only the removal, so it stands for the channel's heads only because of
     * the settings change before it; with small pages the session's later pages read past that change,
     * and must still count it (found by {@link EntriesConvergencePropertyTest}: two artifacts lost).
     */
    @ParameterizedTest(name = "pages of {0}")
    @ValueSource(ints = {1, 2, 100})
    void aMemberAddedToAPrivateChannelThenMadeOpenAndRemovedGetsEveryArtifact(int limit) {
        UUID channel = writer.channel(owner, "private");
        UUID older = writer.create(owner, channel);
        UUID old = writer.create(owner, channel);
        SyncingClient sync = new SyncingClient(RELAY.client(), reader, List.of());
        sync.session();
        sync.session();
        UUID fresh = writer.create(owner, channel);
        writer.addMember(owner, channel, reader);
        writer.editChannel(owner, channel, tag(Tags.VISIBILITY, "open"));
        writer.removeMember(owner, channel, reader);

        List<JsonNode> entries = sync.session(limit);

        String[] everyArtifact = {older.toString(), old.toString(), fresh.toString()};
        assertThat(artifactsIn(sync, channel))
                .as("open and listed now: every artifact of the channel is in D")
                .containsExactlyInAnyOrder(everyArtifact);
        // A session may name an artifact on two of its pages (PROTOCOL 4.2: entries may repeat): `fresh`
        // is named by its own head and again by the membership change that stands for the channel's
        // heads, when a page ends between the two. What it may not do is name anything else, or remove.
        assertThat(entries)
                .as("the session names the channel's artifacts and nothing else")
                .extracting(e -> e.get("d").asText())
                .containsOnly(everyArtifact);
        assertThat(entries)
                .as("no removal")
                .extracting(e -> e.get("op").asText())
                .containsOnly("upsert");
        assertThat(sync.resets).isZero();
    }

    /** The d of each artifact of {@code channel} in the client's store (other tests' open channels are in D too). */
    private static List<String> artifactsIn(SyncingClient sync, UUID channel) {
        return sync.store.entrySet().stream()
                .filter(head -> StreamSupport.stream(head.getValue().get("tags").spliterator(), false)
                        .anyMatch(t -> t.get(0).asText().equals(Tags.CHANNEL)
                                && t.get(1).asText().equals(channel.toString())))
                .map(Map.Entry::getKey)
                .toList();
    }
}
