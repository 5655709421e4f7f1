package chat.buzz.relay.client;

import static chat.buzz.relay.client.ClientHarness.assertStoreIsD;
import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.client.CheckReport;
import chat.buzz.client.Entry;
import chat.buzz.client.RelayError;
import chat.buzz.client.SessionReport;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.StoredArtifact;
import chat.buzz.client.SyncClient;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Model;
import chat.buzz.relay.testing.ModelWriter;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestRelay;
import io.dropwizard.testing.ConfigOverride;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library against the real relay through the scenarios of the incremental tests: after every
 * sync the store equals D by the test model and by the relay's digest read.
 */
@IntegrationTest
class ClientSyncEndToEndTest {
    @Order(1)
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    @Order(2)
    @RegisterExtension
    static final TestRelay CURRENT_ONLY = TestRelay.anotherInstance(RELAY, ConfigOverride.config("gates.incremental", "false"));

    @TempDir
    Path directory;

    private final Model model = new Model();
    private final ModelWriter writer = new ModelWriter(RELAY.client(), model);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();
    private final ClientHarness.Notes notes = new ClientHarness.Notes();

    /** Open channels are discovered by every reader of the community: each test leaves none behind. */
    @AfterEach
    void deleteChannels() {
        writer.deleteAllChannels(owner);
    }

    private SyncClient client(NostrKeys keys, UUID... scope) {
        return ClientHarness.open(RELAY.baseUrl(), keys, directory.resolve(keys.publicKeyHex() + scope.length + ".db"),
                List.of(scope), notes);
    }

    @Test
    void editsMovesDeletesRestoresAndRedactionsReachTheStore() {
        UUID open = writer.channel(owner, true, false, false);
        UUID other = writer.channel(owner, true, false, false);
        UUID secret = writer.channel(owner, false, false, false);
        List<UUID> ids = List.of(writer.create(owner, open), writer.create(owner, open), writer.create(owner, open),
                writer.create(owner, open), writer.create(owner, other));
        try (SyncClient sync = client(reader)) {
            SessionReport first = sync.sync();
            assertThat(first.bootstrap()).isTrue();
            assertThat(first.check()).as("a bootstrap ends with a self-check").isNotNull();
            assertThat(first.check().matched()).isTrue();
            assertStoreIsD(sync, model, reader, Set.of());

            writer.edit(owner, ids.get(0));
            writer.move(owner, ids.get(1), other);
            writer.move(owner, ids.get(2), secret);
            writer.delete(owner, ids.get(3));
            writer.redactHead(owner, ids.get(4));
            SessionReport delta = sync.sync();
            assertThat(delta.bootstrap()).isFalse();
            assertThat(delta.removes()).isGreaterThanOrEqualTo(3);
            assertStoreIsD(sync, model, reader, Set.of());

            writer.restore(owner, ids.get(3));
            writer.edit(owner, ids.get(4));
            sync.sync();
            assertStoreIsD(sync, model, reader, Set.of());
            assertThat(sync.sync().upserts()).as("nothing changed: nothing sent again").isZero();
        }
    }

    @Test
    void grantsRemovalsJoinsAndLeavesOfPrivateAndUnlistedChannels() {
        UUID secret = writer.channel(owner, false, false, false);
        UUID unlisted = writer.channel(owner, true, true, false);
        for (int i = 0; i < 3; i++) {
            writer.create(owner, secret);
            writer.create(owner, unlisted);
        }
        try (SyncClient sync = client(reader)) {
            sync.sync();
            assertThat(sync.store().ids()).isEmpty();
            writer.add(owner, secret, reader);
            writer.join(reader, unlisted);
            sync.sync();
            assertThat(sync.store().ids()).hasSize(6);
            assertStoreIsD(sync, model, reader, Set.of());
            writer.remove(owner, secret, reader);
            writer.leave(reader, unlisted);
            sync.sync();
            assertThat(sync.store().ids()).isEmpty();
            assertStoreIsD(sync, model, reader, Set.of());
        }
    }

    @Test
    void aPolicyResetKeepsTheStoreAndRevalidatesWhatTheBootstrapDidNotReturn() {
        UUID open = writer.channel(owner, true, false, false);
        UUID toHide = writer.channel(owner, true, false, false);
        UUID keep = writer.create(owner, open);
        UUID hidden = writer.create(owner, toHide);
        try (SyncClient sync = client(reader)) {
            sync.sync();
            assertThat(sync.store().ids()).containsExactlyInAnyOrder(keep.toString(), hidden.toString());
            // Unlisting advances the policy stamp; the artifact stays readable by id, not discoverable.
            Replies.accepted(RELAY.client().publish(owner, Nostr.editChannel(owner, toHide, tag("unlisted", "true"))));
            model.channels.get(toHide).unlisted = true;
            SessionReport report = sync.sync();
            assertThat(report.reset()).isTrue();
            assertThat(report.revalidated()).isEqualTo(1);
            assertThat(report.check().matched()).isTrue();
            assertThat(sync.store().get(hidden.toString())).map(StoredArtifact::knownIdOnly).contains(true);
            assertThat(notes.lines).anyMatch(line -> line.startsWith("policy reset"));
            assertStoreIsD(sync, model, reader, Set.of());
        }
    }

    @Test
    void aScopedStoreHoldsOnlyItsChannelsAndDropsATtlChannel() {
        UUID first = writer.channel(owner, true, false, false);
        UUID second = writer.channel(owner, false, false, false);
        UUID ttl = writer.channel(owner, true, false, true);
        writer.add(owner, second, reader);
        writer.create(owner, first);
        writer.create(owner, second);
        writer.create(owner, writer.channel(owner, true, false, false));
        try (SyncClient sync = client(reader, first, second, ttl)) {
            sync.sync();
            assertThat(sync.scope()).containsExactlyInAnyOrder(first.toString(), second.toString());
            assertThat(notes.lines).anyMatch(line -> line.contains("channel " + ttl + " has a TTL"));
            assertStoreIsD(sync, model, reader, Set.of(first, second));
        }
    }

    @Test
    void ownWritesAreConfirmedByAKnownIdReadBeforeTheNextSession() {
        UUID channel = writer.channel(owner, false, false, false);
        writer.add(owner, channel, reader);
        try (SyncClient sync = client(reader)) {
            sync.sync();
            UUID d = Nostr.newId();
            Event created = Nostr.revision(reader, d, channel, "create", null, "mine");
            SyncClient.WriteOutcome outcome = sync.write(created);
            assertThat(outcome.reply().accepted()).isTrue();
            assertThat(outcome.confirmed()).map(Entry::upsert).contains(true);
            assertThat(sync.store().get(d.toString())).map(StoredArtifact::headId).contains(created.id());
            model.revision(d, channel, "create", created.id());
            sync.sync();
            assertThat(sync.store().get(d.toString())).map(StoredArtifact::knownIdOnly).contains(false);
            assertStoreIsD(sync, model, reader, Set.of());

            Event stale = Nostr.revision(reader, d, channel, "update", "0".repeat(64), "stale");
            SyncClient.WriteOutcome conflict = sync.write(stale);
            assertThat(conflict.reply().accepted()).isFalse();
            assertThat(conflict.reply().status()).isEqualTo(409);
            assertThat(conflict.reply().message()).startsWith("conflict:");
        }
    }

    @Test
    void theSelfCheckDetectsDroppedAddedAndAlteredEntriesAndRepairsThem() {
        UUID channel = writer.channel(owner, true, false, false);
        List<UUID> ids = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ids.add(writer.create(owner, channel));
        }
        Path file = directory.resolve("corrupt.db");
        try (SyncClient sync = ClientHarness.open(RELAY.baseUrl(), reader, file, List.of(), notes)) {
            sync.sync();
            assertStoreIsD(sync, model, reader, Set.of());
        }
        try (SqliteStore store = SqliteStore.open(file)) {
            store.forget(List.of(ids.get(0).toString(), ids.get(1).toString()));
            StoredArtifact altered = store.get(ids.get(2).toString()).orElseThrow();
            store.putRaw(new StoredArtifact(altered.d(), altered.h(), "f".repeat(64), altered.eventJson(), false));
            StoredArtifact copy = store.get(ids.get(3).toString()).orElseThrow();
            String invented = UUID.randomUUID().toString();
            store.putRaw(new StoredArtifact(invented, copy.h(), copy.headId(), copy.eventJson(), false));
        }
        try (SyncClient sync = ClientHarness.open(RELAY.baseUrl(), reader, file, List.of(), notes)) {
            CheckReport report = sync.check(true);
            assertThat(report.matched()).isFalse();
            assertThat(report.repaired()).isTrue();
            assertThat(report.removed()).as("the invented id").isEqualTo(1);
            assertThat(report.updated()).as("the altered head").isEqualTo(1);
            assertThat(report.restored()).as("the dropped ids").isEqualTo(2);
            assertThat(report.bootstrap()).as("dropped ids come back only by a bootstrap").isTrue();
            assertThat(notes.lines).anyMatch(line -> line.startsWith("self-check: store had drifted; repaired: 2 restored,"
                    + " 1 removed, 1 updated"));
            assertStoreIsD(sync, model, reader, Set.of());
            assertThat(sync.check(true).matched()).isTrue();
        }
    }

    @Test
    void withoutIncrementalReadsTheClientFallsBackToModeCurrent() {
        UUID channel = writer.channel(owner, true, false, false);
        UUID d = writer.create(owner, channel);
        try (SyncClient sync = ClientHarness.open(CURRENT_ONLY.baseUrl(), reader, directory.resolve("current.db"),
                List.of(channel), notes)) {
            assertThat(sync.capabilities().incremental()).isFalse();
            SessionReport report = sync.sync();
            assertThat(report.mode()).isEqualTo("current");
            assertThat(sync.store().ids()).containsExactly(d.toString());
            assertThatThrownBy(sync::digestRead).isInstanceOf(RelayError.class)
                    .satisfies(e -> assertThat(((RelayError) e).code()).isEqualTo("incremental_unavailable"));
        }
    }

    @Test
    void aStoreSyncedForAnotherScopeStartsAfresh() {
        UUID first = writer.channel(owner, true, false, false);
        UUID second = writer.channel(owner, true, false, false);
        writer.create(owner, first);
        writer.create(owner, second);
        Path file = directory.resolve("rescoped.db");
        try (SyncClient sync = ClientHarness.open(RELAY.baseUrl(), reader, file, List.of(first), notes)) {
            sync.sync();
        }
        try (SyncClient sync = ClientHarness.open(RELAY.baseUrl(), reader, file, List.of(second), notes)) {
            assertThat(sync.sync().bootstrap()).isTrue();
            assertStoreIsD(sync, model, reader, Set.of(second));
        }
    }
}
