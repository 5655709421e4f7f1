package chat.buzz.relay.client;

import static chat.buzz.relay.client.ClientHarness.assertStoreIsD;
import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import chat.buzz.client.CheckReport;
import chat.buzz.client.Entry;
import chat.buzz.client.LiveChanges;
import chat.buzz.client.RelayError;
import chat.buzz.client.SessionReport;
import chat.buzz.client.SqliteStore;
import chat.buzz.client.StoredArtifact;
import chat.buzz.client.SyncClient;
import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.PolicyChangeKinds;
import chat.buzz.relay.testing.Replies;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The library against the real relay through the scenarios of the incremental tests: after every
 * sync the store equals D by the test model and by the relay's digest read. It runs with policy
 * changes as resets; {@link ClientSyncEndToEndEntriesTest} runs it with them as entries.
 */
@IntegrationTest
class ClientSyncEndToEndTest extends ClientEndToEndFixture {
    @Test
    void editsMovesDeletesRestoresAndRedactionsReachTheStore() {
        UUID open = writer.channel(owner, true, false, false);
        UUID other = writer.channel(owner, true, false, false);
        UUID secret = writer.channel(owner, false, false, false);
        List<UUID> ids = List.of(
                writer.create(owner, open),
                writer.create(owner, open),
                writer.create(owner, open),
                writer.create(owner, open),
                writer.create(owner, other));
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
            assertThat(sync.sync().upserts())
                    .as("nothing changed: nothing sent again")
                    .isZero();
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
            Replies.accepted(relay().client()
                    .publish(owner, Nostr.editChannel(owner, toHide, tag(Tags.UNLISTED, "true"))));
            model.channels.get(toHide).unlisted = true;
            SessionReport report = sync.sync();
            if (policyChangesAsEntries()) {
                // As entries (PROTOCOL 4.4): a delta removes what left D; nothing to revalidate.
                assertThat(report.reset()).isFalse();
                assertThat(report.bootstrap()).isFalse();
                assertThat(report.removes()).isEqualTo(1);
                assertThat(report.revalidated()).isZero();
                assertThat(sync.store().ids()).containsExactly(keep.toString());
                assertThat(sync.resets()).isZero();
            } else {
                assertThat(report.reset()).isTrue();
                assertThat(report.revalidated()).isEqualTo(1);
                assertThat(report.check().matched()).isTrue();
                assertThat(sync.store().get(hidden.toString()))
                        .map(StoredArtifact::knownIdOnly)
                        .contains(true);
                assertThat(notes.lines).anyMatch(line -> line.startsWith("policy reset"));
            }
            assertStoreIsD(sync, model, reader, Set.of());
        }
    }

    /**
     * Every kind of channel policy change of {@link PolicyChangeKinds}, one after the other, with a
     * member and a non-member of each channel syncing: after each change both stores equal D by the
     * model and by the relay's digest. As entries, no session is a reset; as resets, each change is one.
     */
    @Test
    void everyKindOfPolicyChangeLeavesEachStoreEqualToD() {
        NostrKeys member = NostrKeys.generate();
        try (SyncClient memberSync = client(member);
                SyncClient outsiderSync = client(reader)) {
            memberSync.sync();
            outsiderSync.sync();
            int resets = 0;
            for (PolicyChangeKinds.Change change : PolicyChangeKinds.all()) {
                UUID channel = Nostr.newId();
                Replies.accepted(relay().client().publish(owner, change.create(owner, channel)));
                model.addChannel(channel, owner.publicKeyHex(), change.open(), change.unlisted(), change.ttl());
                writer.add(owner, channel, member);
                writer.create(owner, channel);
                writer.create(owner, channel);
                memberSync.sync();
                outsiderSync.sync();

                Replies.accepted(relay().client().publish(owner, change.change(owner, channel)));
                change.applyTo(model, channel);
                resets += policyChangesAsEntries() ? 0 : 1;
                for (SyncClient sync : List.of(memberSync, outsiderSync)) {
                    SessionReport report = sync.sync();
                    assertThat(report.reset()).as("%s", change).isEqualTo(!policyChangesAsEntries());
                    assertStoreIsD(sync, model, sync == memberSync ? member : reader, Set.of());
                    assertThat(sync.resets()).as("%s", change).isEqualTo(resets);
                }
            }
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
            assertThat(sync.store().get(d.toString()))
                    .map(StoredArtifact::headId)
                    .contains(created.id());
            model.revision(d, channel, "create", created.id());
            sync.sync();
            assertThat(sync.store().get(d.toString()))
                    .map(StoredArtifact::knownIdOnly)
                    .contains(false);
            assertStoreIsD(sync, model, reader, Set.of());

            Event stale = Nostr.revision(reader, d, channel, "update", "0".repeat(64), "stale");
            SyncClient.WriteOutcome conflict = sync.write(stale);
            assertThat(conflict.reply().accepted()).isFalse();
            assertThat(conflict.reply().status()).isEqualTo(409);
            assertThat(conflict.reply().message()).startsWith("conflict:");
        }
    }

    @Test
    void anArtifactMovedIntoATtlChannelLeavesTheStoreAndComesBackWhenMovedOut() {
        UUID open = writer.channel(owner, true, false, false);
        UUID ttl = writer.channel(owner, true, false, true);
        UUID traveller = writer.create(owner, open);
        writer.create(owner, open);
        writer.create(owner, ttl);
        try (SyncClient sync = client(reader)) {
            sync.sync();
            assertThat(sync.store().ids())
                    .as("TTL channels are never synced")
                    .hasSize(2)
                    .contains(traveller.toString());
            assertStoreIsD(sync, model, reader, Set.of());

            writer.move(owner, traveller, ttl);
            assertThat(sync.sync().removes()).isGreaterThanOrEqualTo(1);
            assertThat(sync.store().get(traveller.toString())).isEmpty();
            assertStoreIsD(sync, model, reader, Set.of());

            writer.edit(owner, traveller);
            writer.move(owner, traveller, open);
            sync.sync();
            assertThat(sync.store().get(traveller.toString()))
                    .map(StoredArtifact::h)
                    .contains(open.toString());
            assertStoreIsD(sync, model, reader, Set.of());
            assertThat(sync.check(false).matched()).isTrue();
        }
    }

    @Test
    void aRefusedCursorRestartsTheSessionCountsTheResetAndConverges() {
        UUID channel = writer.channel(owner, true, false, false);
        UUID edited = writer.create(owner, channel);
        UUID deleted = writer.create(owner, channel);
        Path file = directory.resolve("refused.db");
        try (SyncClient sync = ClientHarness.open(relay().baseUrl(), reader, file, List.of(), notes)) {
            sync.sync();
        }
        String othersCursor;
        try (SyncClient other = client(owner)) {
            other.sync(false);
            othersCursor = other.store().position().orElseThrow().cursor();
        }
        saveCursor(file, "not-a-cursor");
        writer.edit(owner, edited);
        writer.delete(owner, deleted);
        writer.create(owner, channel);
        try (SyncClient sync = ClientHarness.open(relay().baseUrl(), reader, file, List.of(), notes)) {
            SessionReport report = sync.sync();
            assertThat(report.refusedCursor()).isEqualTo("incremental_invalid_cursor");
            assertThat(report.bootstrap()).isTrue();
            assertThat(report.revalidated())
                    .as("the deleted id, which the bootstrap did not return")
                    .isEqualTo(1);
            assertThat(report.check().matched()).isTrue();
            assertThat(sync.resets()).isEqualTo(1);
            assertThat(notes.lines)
                    .contains("the relay refused the saved cursor (incremental_invalid_cursor): starting a"
                            + " fresh bootstrap");
            assertStoreIsD(sync, model, reader, Set.of());
        }
        saveCursor(file, othersCursor);
        writer.edit(owner, edited);
        try (SyncClient sync = ClientHarness.open(relay().baseUrl(), reader, file, List.of(), notes)) {
            SessionReport report = sync.sync();
            assertThat(report.refusedCursor()).as("another reader's cursor").isEqualTo("incremental_cursor_mismatch");
            assertThat(sync.resets()).isEqualTo(1);
            assertStoreIsD(sync, model, reader, Set.of());
            assertThat(sync.sync().refusedCursor())
                    .as("the fresh cursor is accepted")
                    .isNull();
        }
    }

    /** The head the relay holds now, as a live EVENT would carry it; the store is left alone. */
    private static Entry headNow(SyncClient sync, UUID d) {
        return sync.knownIds(List.of(d.toString())).entries().get(0);
    }

    /**
     * The follower's interleaving, driven step by step: live changes wait in the socket's queue while a
     * self-check's catch-up read installs newer state; applied afterwards they must not take the store back.
     */
    @Test
    void liveChangesQueuedBeforeACatchUpNeverPutBackAnOlderHeadOrARemovedArtifact() {
        UUID channel = writer.channel(owner, true, false, false);
        UUID edited = writer.create(owner, channel);
        UUID deleted = writer.create(owner, channel);
        try (SyncClient sync = client(reader)) {
            sync.sync();
            LiveChanges live = new LiveChanges(sync.store());
            writer.edit(owner, edited);
            Entry second = headNow(sync, edited);
            writer.edit(owner, edited);
            Entry third = headNow(sync, edited);
            writer.edit(owner, deleted);
            Entry beforeDelete = headNow(sync, deleted);
            writer.edit(owner, edited);
            writer.delete(owner, deleted);
            // Arrivals 1..3 are queued when the self-check starts; its catch-up reads the fourth head and the delete.
            live.caughtUpThrough(3);
            sync.check(true);
            assertThat(live.offer(1, second)).isFalse();
            assertThat(live.offer(2, third)).isFalse();
            assertThat(live.offer(3, beforeDelete))
                    .as("would bring back a deleted artifact")
                    .isFalse();
            live.flush();
            assertStoreIsD(sync, model, reader, Set.of());
            // The same changes arriving while the catch-up ran are applied: the store refuses the older heads.
            assertThat(live.offer(4, second)).isTrue();
            assertThat(live.offer(5, third)).isTrue();
            live.flush();
            assertStoreIsD(sync, model, reader, Set.of());
            assertThat(live.dropped()).isEqualTo(3);
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
        try (SyncClient sync = ClientHarness.open(relay().baseUrl(), reader, file, List.of(), notes)) {
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
        try (SyncClient sync = ClientHarness.open(relay().baseUrl(), reader, file, List.of(), notes)) {
            CheckReport report = sync.check(true);
            assertThat(report.matched()).isFalse();
            assertThat(report.repaired()).isTrue();
            assertThat(report.removed()).as("the invented id").isEqualTo(1);
            assertThat(report.updated()).as("the altered head").isEqualTo(1);
            assertThat(report.restored()).as("the dropped ids").isEqualTo(2);
            assertThat(report.bootstrap())
                    .as("dropped ids come back only by a bootstrap")
                    .isTrue();
            assertThat(notes.lines)
                    .anyMatch(line -> line.startsWith(
                            "self-check: store had drifted; repaired: 2 restored," + " 1 removed, 1 updated"));
            assertStoreIsD(sync, model, reader, Set.of());
            assertThat(sync.check(true).matched()).isTrue();
        }
    }

    @Test
    void withoutIncrementalReadsTheClientFallsBackToModeCurrent() {
        UUID channel = writer.channel(owner, true, false, false);
        UUID d = writer.create(owner, channel);
        try (SyncClient sync = ClientHarness.open(
                currentOnly().baseUrl(), reader, directory.resolve("current.db"), List.of(channel), notes)) {
            assertThat(sync.capabilities().incremental()).isFalse();
            SessionReport report = sync.sync();
            assertThat(report.mode()).isEqualTo("current");
            assertThat(sync.store().ids()).containsExactly(d.toString());
            assertThatThrownBy(sync::digestRead)
                    .isInstanceOf(RelayError.class)
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
        try (SyncClient sync = ClientHarness.open(relay().baseUrl(), reader, file, List.of(first), notes)) {
            sync.sync();
        }
        try (SyncClient sync = ClientHarness.open(relay().baseUrl(), reader, file, List.of(second), notes)) {
            assertThat(sync.sync().bootstrap()).isTrue();
            assertStoreIsD(sync, model, reader, Set.of(second));
        }
    }
}
