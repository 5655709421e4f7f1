package chat.buzz.relay.incremental;

import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.artifact.ArtifactDao;
import chat.buzz.relay.events.EventStore;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.List;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A writer stamps a change, then holds its transaction open (for less than the overlap) while a reader
 * completes a session; after the commit the next session still delivers the change.
 */
@IntegrationTest
class CommitDelayTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("incremental.overlapSeconds", "20"));

    private final RelayClient relay = RELAY.client();
    private final Writer writer = new Writer(relay);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void aChangeCommittedAfterAReaderPassedItsStampIsDeliveredNextSession() {
        UUID channel = writer.channel(owner, "open");
        UUID d = writer.create(owner, channel);
        SyncingClient sync = new SyncingClient(relay, reader, List.of(channel.toString()));
        sync.session();

        Event edit = Nostr.revision(owner, d, channel, "update", writer.heads.get(d), "slow edit");
        try (Handle slowWriter =
                RELAY.jdbi().installPlugin(new SqlObjectPlugin()).open()) {
            slowWriter.begin();
            stampEdit(slowWriter, d, channel, edit);

            List<JsonNode> during = sync.session();
            assertThat(during)
                    .noneMatch(entry -> entry.path("event").path("id").asText().equals(edit.id()));
            assertThat(sync.heads()).containsEntry(d.toString(), writer.heads.get(d));

            slowWriter.commit();
        }
        sync.session();
        assertThat(sync.heads()).containsEntry(d.toString(), edit.id());
    }

    @Test
    void aChangeStampedDuringALongSessionIsDeliveredNextSession() {
        UUID channel = writer.channel(owner, "open");
        List<UUID> tasks = writer.createMany(owner, channel, 4);
        SyncingClient sync = new SyncingClient(relay, reader, List.of(channel.toString()));
        sync.page(1);
        UUID first = tasks.get(0);
        Event edit = Nostr.revision(owner, first, channel, "update", writer.heads.get(first), "slow edit");
        try (Handle slowWriter =
                RELAY.jdbi().installPlugin(new SqlObjectPlugin()).open()) {
            slowWriter.begin();
            stampEdit(slowWriter, first, channel, edit);
            while (sync.midSession) {
                sync.page(1);
            }
            slowWriter.commit();
        }
        assertThat(sync.heads()).containsEntry(first.toString(), writer.heads.get(first));
        sync.session();
        assertThat(sync.heads()).containsEntry(first.toString(), edit.id());
    }

    /**
     * A session that pauses while others write adds a step to what it judged, so the next session sends
     * none of those writes again; a change stamped before that step's start but committed after it is
     * still delivered, because no page of the session could see it where it stands.
     */
    @Test
    void aResumedSessionSendsNothingTwiceAndStillMissesNoLateCommit() {
        UUID channel = writer.channel(owner, "open");
        UUID early = writer.create(owner, channel);
        SyncingClient sync = new SyncingClient(relay, reader, List.of(channel.toString()));
        sync.session();

        Event late = Nostr.revision(owner, early, channel, "update", writer.heads.get(early), "late edit");
        List<UUID> written;
        try (Handle slowWriter =
                RELAY.jdbi().installPlugin(new SqlObjectPlugin()).open()) {
            slowWriter.begin();
            stampEdit(slowWriter, early, channel, late);
            written = writer.createMany(owner, channel, 3);
            assertThat(sync.page(1)).hasSize(1);
            UUID whilePaused = writer.create(owner, channel);
            slowWriter.commit();
            List<JsonNode> rest = new java.util.ArrayList<>();
            while (sync.midSession) {
                rest.addAll(sync.page(1));
            }
            assertThat(rest).extracting(entry -> entry.path("d").asText()).contains(whilePaused.toString());
        }
        assertThat(sync.heads()).containsEntry(early.toString(), writer.heads.get(early));
        assertThat(sync.heads())
                .containsKeys(written.stream().map(UUID::toString).toArray(String[]::new));

        List<JsonNode> next = sync.session();
        assertThat(next)
                .extracting(entry -> entry.path("d").asText() + " "
                        + entry.path("event").path("id").asText())
                .containsExactly(early + " " + late.id());
        assertThat(sync.session()).isEmpty();
    }

    /** The same SQL as the relay's accepted update, in a transaction the test controls. */
    private static void stampEdit(Handle handle, UUID d, UUID channel, Event edit) {
        long community = handle.createQuery("SELECT id FROM communities WHERE name = 'test'")
                .mapTo(Long.class)
                .one();
        handle.attach(EventStore.class).store(community, edit);
        ArtifactDao artifacts = handle.attach(ArtifactDao.class);
        String previous = artifacts.lockHead(community, d).orElseThrow().headEventId();
        artifacts.advanceHead(community, d, channel, edit.id(), false);
        artifacts.recordRevision(
                edit.id(), community, d, channel, Kinds.ARTIFACT_REVISION, "update", previous, edit.pubkey());
    }
}
