package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A former member of a channel, one scenario per way it once went wrong, with no policy change anywhere,
 * so no reset can hide a missed removal: a former member must drop what it held (whether the artifact was
 * deleted, moved away, or the reader left first), must not hear of what it never held, and a page names
 * each artifact at most once.
 */
@IntegrationTest
class FormerMemberConvergenceTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private final Writer writer = new Writer(RELAY.client());
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    private SyncingClient client() {
        return new SyncingClient(RELAY.client(), reader, List.of());
    }

    /** The reader holds one artifact of a private channel it is a member of. */
    private UUID heldInPrivateChannel(UUID channel, SyncingClient sync) {
        writer.addMember(owner, channel, reader);
        UUID d = writer.create(owner, channel);
        sync.session();
        assertThat(sync.store).containsKey(d.toString());
        return d;
    }

    @Test
    void deletedThenRemovedMemberDropsTheArtifact() {
        SyncingClient sync = client();
        UUID secret = writer.channel(owner, "private");
        UUID d = heldInPrivateChannel(secret, sync);

        writer.delete(owner, d);
        writer.removeMember(owner, secret, reader);
        sync.session();

        assertThat(sync.store).as("deleted, then the reader removed").doesNotContainKey(d.toString());
        assertThat(sync.resets).isZero();
    }

    @Test
    void removedMemberThenDeletedDropsTheArtifact() {
        SyncingClient sync = client();
        UUID secret = writer.channel(owner, "private");
        UUID d = heldInPrivateChannel(secret, sync);

        writer.removeMember(owner, secret, reader);
        writer.delete(owner, d);
        sync.session();

        assertThat(sync.store).as("the reader removed, then deleted").doesNotContainKey(d.toString());
        assertThat(sync.resets).isZero();
    }

    @Test
    void removedMemberThenMovedToAnotherPrivateChannelDropsTheArtifact() {
        SyncingClient sync = client();
        UUID secret = writer.channel(owner, "private");
        UUID other = writer.channel(owner, "private");
        UUID d = heldInPrivateChannel(secret, sync);

        writer.removeMember(owner, secret, reader);
        writer.move(owner, d, other);
        sync.session();

        assertThat(sync.store)
                .as("the reader removed, then moved to a private channel it cannot read")
                .doesNotContainKey(d.toString());
        assertThat(sync.resets).isZero();
    }

    @Test
    void leftUnlistedChannelThenMovedToAPrivateChannelDropsTheArtifact() {
        SyncingClient sync = client();
        UUID unlisted = writer.channel(owner, "open", tag(Tags.UNLISTED, "true"));
        UUID secret = writer.channel(owner, "private");
        writer.join(reader, unlisted);
        UUID d = writer.create(owner, unlisted);
        sync.session();
        assertThat(sync.store).containsKey(d.toString());

        writer.leave(reader, unlisted);
        writer.move(owner, d, secret);
        sync.session();

        assertThat(sync.store)
                .as("left an unlisted open channel, then moved to a private channel it cannot read")
                .doesNotContainKey(d.toString());
        assertThat(sync.resets).isZero();
    }

    @Test
    void leftUnlistedChannelThenDeletedDropsTheArtifact() {
        SyncingClient sync = client();
        UUID unlisted = writer.channel(owner, "open", tag(Tags.UNLISTED, "true"));
        writer.join(reader, unlisted);
        UUID d = writer.create(owner, unlisted);
        sync.session();
        assertThat(sync.store).containsKey(d.toString());

        writer.leave(reader, unlisted);
        writer.delete(owner, d);
        sync.session();

        assertThat(sync.store).as("left an unlisted open channel, then deleted").doesNotContainKey(d.toString());
        assertThat(sync.resets).isZero();
    }

    @Test
    void aMemberWhoJoinedAfterAnArtifactLeftIsNeverToldOfIt() {
        SyncingClient sync = client();
        UUID secret = writer.channel(owner, "private");
        UUID elsewhere = writer.channel(owner, "private");
        UUID d = writer.create(owner, secret);
        sync.session();

        writer.move(owner, d, elsewhere);
        writer.addMember(owner, secret, reader);
        writer.removeMember(owner, secret, reader);
        List<JsonNode> entries = sync.session();

        assertThat(entries)
                .as("%s left the channel before the reader joined it: never held, never named", d)
                .noneMatch(entry -> entry.get("d").asText().equals(d.toString()));
    }

    @Test
    void aPageNamesEachArtifactOnceWhenAGrantAndItsArtifactsAreRecent() {
        SyncingClient sync = client();
        sync.session();
        // Everything below happens within the overlap, so the head and the membership sources both see it.
        UUID secret = writer.channel(owner, "private");
        List<UUID> artifacts = writer.createMany(owner, secret, 3);
        writer.addMember(owner, secret, reader);

        for (int session = 0; session < 2; session++) {
            List<JsonNode> page = sync.page(100);
            assertThat(sync.midSession).isFalse();
            Set<String> named = new HashSet<>();
            assertThat(page)
                    .as("session %d, a page names each artifact at most once", session)
                    .allMatch(entry -> named.add(entry.get("d").asText()));
            assertThat(named)
                    .containsAll(
                            session == 0
                                    ? artifacts.stream().map(UUID::toString).toList()
                                    : List.of());
        }
    }
}
