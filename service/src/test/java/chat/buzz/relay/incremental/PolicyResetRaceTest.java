package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.access.AccessLookup;
import chat.buzz.relay.artifact.ArtifactDao;
import chat.buzz.relay.events.EventStore;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The first artifact of an empty channel commits while the channel's visibility changes. With no
 * overlap to hide behind, the artifact must still reach a reader through the reset.
 */
@IntegrationTest
class PolicyResetRaceTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"),
            ConfigOverride.config("incremental.overlapSeconds", "0"));

    private final RelayClient relay = RELAY.client();
    private final Writer writer = new Writer(relay);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    @Test
    void theFirstArtifactOfAChannelCannotEscapeTheReset() throws Exception {
        UUID channel = writer.channel(owner, "private");
        SyncingClient sync = new SyncingClient(relay, reader, List.of());
        sync.session();
        UUID d = Nostr.newId();
        Event create = Nostr.revision(owner, d, channel, "create", null, "first");

        CompletableFuture<Void> opening;
        try (Handle artifactWrite =
                RELAY.jdbi().installPlugin(new SqlObjectPlugin()).open()) {
            artifactWrite.begin();
            long community = artifactWrite
                    .createQuery("SELECT id FROM communities WHERE name = 'test'")
                    .mapTo(Long.class)
                    .one();
            // the relay's artifact create: share-lock the channel, then write the head and the ledger row
            EventStore.on(artifactWrite).store(community, create);
            assertThat(AccessLookup.lookup(
                                    artifactWrite, community, channel, owner.publicKeyHex(), AccessLookup.Lock.SHARED)
                            .canWrite())
                    .isTrue();
            ArtifactDao.on(artifactWrite).createHead(community, d, channel, create.id(), "task.v1");
            ArtifactDao.on(artifactWrite)
                    .recordRevision(
                            create.id(),
                            community,
                            d,
                            channel,
                            Kinds.ARTIFACT_REVISION,
                            "create",
                            null,
                            owner.publicKeyHex());

            opening =
                    CompletableFuture.runAsync(() -> writer.editChannel(owner, channel, tag(Tags.VISIBILITY, "open")));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> RELAY.jdbi()
                                    .withHandle(handle -> handle.createQuery("""
                            SELECT count(*) FROM pg_stat_activity
                            WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'""")
                                            .mapTo(Integer.class)
                                            .one())
                            > 0);
            artifactWrite.commit();
        }
        opening.get(30, TimeUnit.SECONDS);

        sync.session();
        assertThat(sync.resets).isEqualTo(1);
        assertThat(sync.heads()).containsEntry(d.toString(), create.id());
    }
}
