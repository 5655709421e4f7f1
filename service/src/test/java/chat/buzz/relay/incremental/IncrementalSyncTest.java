package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PROTOCOL 4.1–4.4 through signed HTTP against the running relay. */
@IntegrationTest
class IncrementalSyncTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(ConfigOverride.config("gates.incremental", "true"));

    private final RelayClient relay = RELAY.client();
    private final Writer writer = new Writer(relay);
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys reader = NostrKeys.generate();

    private SyncingClient client(NostrKeys keys, UUID... scope) {
        return new SyncingClient(
                relay, keys, java.util.Arrays.stream(scope).map(UUID::toString).toList());
    }

    private static Map<String, String> ops(List<JsonNode> entries) {
        return entries.stream()
                .collect(Collectors.toMap(
                        e -> e.get("d").asText(),
                        e -> e.get("op").asText()
                                + (e.has("reason") ? ":" + e.get("reason").asText() : ""),
                        (a, b) -> b));
    }

    @Test
    void createEditAndDeltaDeliverTheNewHead() {
        UUID channel = writer.channel(owner, "open");
        UUID d = writer.create(owner, channel);
        SyncingClient sync = client(reader);
        sync.session();
        assertThat(sync.heads()).containsEntry(d.toString(), writer.heads.get(d));

        Event edited = writer.edit(owner, d, "edited");
        List<JsonNode> entries = sync.session();
        assertThat(ops(entries)).containsEntry(d.toString(), "upsert");
        assertThat(sync.heads()).containsEntry(d.toString(), edited.id());
        JsonNode entry = entries.stream()
                .filter(e -> e.get("d").asText().equals(d.toString()))
                .findFirst()
                .orElseThrow();
        assertThat(entry.get("h").asText()).isEqualTo(channel.toString());
        assertThat(Event.fromJson(entry.get("event")).hasValidSignature()).isTrue();
    }

    /** PROTOCOL 4.2: what the previous session delivered unchanged is not sent again, overlap or not. */
    @Test
    void aSessionAfterNoChangeIsEmptyEvenRightAfterABurstOfWrites() {
        UUID channel = writer.channel(owner, "private");
        writer.addMember(owner, channel, reader);
        List<UUID> burst = new java.util.ArrayList<>();
        for (int i = 0; i < 30; i++) {
            burst.add(writer.create(owner, channel));
        }
        SyncingClient sync = client(reader, channel);
        assertThat(sync.session()).hasSize(30);
        assertThat(sync.session()).as("a delta right after the bootstrap").isEmpty();

        Event edited = writer.edit(owner, burst.get(7), "edited");
        List<JsonNode> entries = sync.session();
        assertThat(ops(entries)).containsOnlyKeys(burst.get(7).toString());
        assertThat(sync.heads()).containsEntry(burst.get(7).toString(), edited.id());
        assertThat(sync.session())
                .as("a delta after the delta that delivered the edit")
                .isEmpty();

        writer.removeMember(owner, channel, reader);
        assertThat(ops(sync.session()))
                .hasSize(30)
                .allSatisfy((d, op) -> assertThat(op).isEqualTo("remove:unavailable"));
        assertThat(sync.session()).as("a delta after the removals").isEmpty();
    }

    @Test
    void deletionRemovesAndRestoreBringsBack() {
        UUID channel = writer.channel(owner, "open");
        UUID d = writer.create(owner, channel);
        SyncingClient sync = client(reader, channel);
        sync.session();
        writer.delete(owner, d);
        assertThat(ops(sync.session())).containsEntry(d.toString(), "remove:deleted");
        assertThat(sync.store).doesNotContainKey(d.toString());
        Event restored = writer.restore(owner, d);
        sync.session();
        assertThat(sync.heads()).containsEntry(d.toString(), restored.id());
    }

    @Test
    void deletedHeadsAreAbsentFromBootstrap() {
        UUID channel = writer.channel(owner, "open");
        UUID live = writer.create(owner, channel);
        UUID deleted = writer.create(owner, channel);
        writer.delete(owner, deleted);
        List<JsonNode> entries = client(reader, channel).session();
        assertThat(ops(entries)).containsOnlyKeys(live.toString()).containsEntry(live.toString(), "upsert");
    }

    @Test
    void knownIdReadRecoversOwnWritesAndExplainsRemovals() {
        UUID open = writer.channel(owner, "open");
        UUID secret = writer.channel(owner, "private");
        UUID ttl = writer.channel(owner, "open", tag(Tags.TTL, "3600"));
        UUID live = writer.create(owner, open);
        UUID deleted = writer.create(owner, open);
        writer.delete(owner, deleted);
        UUID hidden = writer.create(owner, secret);
        UUID ephemeral = writer.create(owner, ttl);
        UUID unknown = UUID.randomUUID();
        List<String> ids = List.of(live, deleted, hidden, ephemeral, unknown, live).stream()
                .map(UUID::toString)
                .toList();

        List<JsonNode> entries = client(reader).knownIds(ids);

        assertThat(entries.get(0).get("op").asText()).isEqualTo("upsert");
        assertThat(entries.get(0).get("event").get("id").asText()).isEqualTo(writer.heads.get(live));
        assertThat(entries.get(1).get("reason").asText()).isEqualTo("deleted");
        assertThat(entries.get(2).get("reason").asText()).isEqualTo("unavailable");
        assertThat(entries.get(3).get("reason").asText()).isEqualTo("unavailable");
        assertThat(entries.get(4).get("reason").asText()).isEqualTo("unavailable");
        assertThat(entries.get(5).get("op").asText()).isEqualTo("upsert");
        assertThat(client(owner)
                        .knownIds(List.of(hidden.toString()))
                        .get(0)
                        .get("op")
                        .asText())
                .isEqualTo("upsert");
        assertThat(client(owner)
                        .knownIdsReply(List.of(live.toString()))
                        .get("policy")
                        .isTextual())
                .isTrue();
    }

    @Test
    void privateMoveRemovesForReadersOfTheOldChannelOnly() {
        UUID open = writer.channel(owner, "open");
        UUID secret = writer.channel(owner, "private");
        UUID d = writer.create(owner, open);
        SyncingClient outsider = client(reader);
        SyncingClient member = client(owner);
        outsider.session();
        member.session();
        writer.move(owner, d, secret);

        assertThat(ops(outsider.session())).containsEntry(d.toString(), "remove:moved");
        assertThat(outsider.store).doesNotContainKey(d.toString());
        member.session();
        assertThat(member.heads()).containsEntry(d.toString(), writer.heads.get(d));
        assertThat(member.store.get(d.toString()).toString()).contains(secret.toString());
    }

    @Test
    void aMoveOutOfAPrivateChannelIsNotExplainedToOutsiders() {
        NostrKeys stranger = NostrKeys.generate();
        UUID secret = writer.channel(owner, "private");
        UUID other = writer.channel(owner, "private");
        UUID d = writer.create(owner, secret);
        SyncingClient strangerSync = client(stranger);
        strangerSync.session();
        writer.move(owner, d, other);
        assertThat(ops(strangerSync.session())).doesNotContainKey(d.toString());
    }

    @Test
    void grantsDeliverOlderArtifactsAndRemovalsTakeThemAway() {
        UUID secret = writer.channel(owner, "private");
        List<UUID> older = writer.createMany(owner, secret, 3);
        SyncingClient sync = client(reader);
        sync.session();
        assertThat(sync.store)
                .doesNotContainKeys(older.stream().map(UUID::toString).toArray(String[]::new));

        writer.addMember(owner, secret, reader);
        sync.session();
        assertThat(sync.store).containsKeys(older.stream().map(UUID::toString).toArray(String[]::new));

        writer.removeMember(owner, secret, reader);
        Map<String, String> removed = ops(sync.session());
        older.forEach(d -> assertThat(removed).containsEntry(d.toString(), "remove:unavailable"));
        assertThat(sync.store)
                .doesNotContainKeys(older.stream().map(UUID::toString).toArray(String[]::new));

        writer.addMember(owner, secret, reader);
        sync.session();
        assertThat(sync.store).containsKeys(older.stream().map(UUID::toString).toArray(String[]::new));
    }

    @Test
    void artifactsCreatedAfterARemovalAreNotNamedToTheRemovedMember() {
        UUID secret = writer.channel(owner, "private");
        writer.addMember(owner, secret, reader);
        UUID before = writer.create(owner, secret);
        SyncingClient sync = client(reader);
        sync.session();
        writer.removeMember(owner, secret, reader);
        UUID after = writer.create(owner, secret);
        Map<String, String> entries = ops(sync.session());
        assertThat(entries)
                .containsEntry(before.toString(), "remove:unavailable")
                .doesNotContainKey(after.toString());
    }

    @Test
    void reJoiningAnUnlistedChannelDeliversEverythingAgain() {
        UUID unlisted = writer.channel(owner, "open", tag(Tags.UNLISTED, "true"));
        List<UUID> tasks = writer.createMany(owner, unlisted, 2);
        SyncingClient sync = client(reader);
        sync.session();
        assertThat(sync.store).doesNotContainKey(tasks.get(0).toString());
        writer.join(reader, unlisted);
        sync.session();
        assertThat(sync.store)
                .containsKeys(tasks.get(0).toString(), tasks.get(1).toString());
        writer.leave(reader, unlisted);
        assertThat(ops(sync.session())).containsEntry(tasks.get(0).toString(), "remove:unavailable");
        assertThat(sync.store).doesNotContainKey(tasks.get(0).toString());
        writer.join(reader, unlisted);
        sync.session();
        assertThat(sync.store)
                .containsKeys(tasks.get(0).toString(), tasks.get(1).toString());
    }

    @Test
    void unlistedChannelsAreHiddenFromBroadDiscoveryButNamedScopesAndKnownIdsSeeThem() {
        UUID unlisted = writer.channel(owner, "open", tag(Tags.UNLISTED, "true"));
        UUID d = writer.create(owner, unlisted);
        assertThat(client(reader).session()).noneMatch(e -> e.get("d").asText().equals(d.toString()));
        assertThat(ops(client(reader, unlisted).session())).containsEntry(d.toString(), "upsert");
        assertThat(client(reader)
                        .knownIds(List.of(d.toString()))
                        .get(0)
                        .get("op")
                        .asText())
                .isEqualTo("upsert");
        assertThat(ops(client(owner).session())).containsEntry(d.toString(), "upsert");
    }

    @Test
    void listingAChannelResetsAndDeliversItsArtifacts() {
        UUID unlisted = writer.channel(owner, "open", tag(Tags.UNLISTED, "true"));
        UUID d = writer.create(owner, unlisted);
        SyncingClient sync = client(reader);
        sync.session();
        assertThat(sync.store).doesNotContainKey(d.toString());
        writer.editChannel(owner, unlisted, tag(Tags.UNLISTED, "false"));
        sync.page(null);
        assertThat(sync.resets).isEqualTo(1);
        while (sync.midSession) {
            sync.page(null);
        }
        assertThat(sync.store).containsKey(d.toString());
    }

    @Test
    void makingAChannelPrivateResetsAndRevalidationDropsItsArtifacts() {
        UUID channel = writer.channel(owner, "open");
        UUID d = writer.create(owner, channel);
        SyncingClient sync = client(reader);
        sync.session();
        assertThat(sync.store).containsKey(d.toString());
        writer.editChannel(owner, channel, tag(Tags.VISIBILITY, "private"));
        sync.session();
        assertThat(sync.resets).isEqualTo(1);
        assertThat(sync.store).doesNotContainKey(d.toString());
    }

    @Test
    void deletingAnEmptyChannelStillAdvancesThePolicyStamp() {
        UUID empty = writer.channel(owner, "open");
        SyncingClient sync = client(reader);
        sync.session();
        String policy = client(reader)
                .knownIdsReply(List.of(UUID.randomUUID().toString()))
                .get("policy")
                .asText();
        writer.deleteChannel(owner, empty);
        assertThat(client(reader)
                        .knownIdsReply(List.of(UUID.randomUUID().toString()))
                        .get("policy")
                        .asText())
                .isNotEqualTo(policy);
        sync.session();
        assertThat(sync.resets).isEqualTo(1);
    }

    @Test
    void aRenameIsNotAPolicyChange() {
        UUID channel = writer.channel(owner, "open");
        SyncingClient sync = client(reader);
        sync.session();
        writer.editChannel(owner, channel, tag(Tags.CHANNEL_NAME, "renamed"));
        sync.session();
        assertThat(sync.resets).isZero();
    }

    @Test
    void redactingTheHeadRemovesUntilANewRevision() {
        UUID channel = writer.channel(owner, "open");
        UUID d = writer.create(owner, channel);
        SyncingClient sync = client(reader, channel);
        sync.session();
        writer.redactHead(owner, d);
        assertThat(ops(sync.session())).containsEntry(d.toString(), "remove:unavailable");
        Event next = writer.edit(owner, d, "after redaction");
        sync.session();
        assertThat(sync.heads()).containsEntry(d.toString(), next.id());
    }

    @Test
    void movesIntoTtlChannelsRemoveAndTtlArtifactsAreNeverSynced() {
        UUID channel = writer.channel(owner, "open");
        UUID ttl = writer.channel(owner, "open", tag(Tags.TTL, "60"));
        UUID d = writer.create(owner, channel);
        UUID ephemeral = writer.create(owner, ttl);
        SyncingClient sync = client(reader);
        sync.session();
        assertThat(sync.store).containsKey(d.toString()).doesNotContainKey(ephemeral.toString());
        writer.move(owner, d, ttl);
        sync.session();
        assertThat(sync.store).doesNotContainKey(d.toString());
    }

    @Test
    void clearingATtlResetsAndDeliversTheChannelsArtifacts() {
        UUID ttl = writer.channel(owner, "open", tag(Tags.TTL, "60"));
        UUID d = writer.create(owner, ttl);
        SyncingClient sync = client(reader);
        sync.session();
        assertThat(sync.store).doesNotContainKey(d.toString());
        writer.editChannel(owner, ttl, tag(Tags.TTL, "0"));
        sync.session();
        assertThat(sync.resets).isEqualTo(1);
        assertThat(sync.heads()).containsEntry(d.toString(), writer.heads.get(d));
    }

    @Test
    void bootstrapAcrossTwoPages() {
        UUID channel = writer.channel(owner, "open");
        List<UUID> tasks = writer.createMany(owner, channel, 5);
        SyncingClient sync = client(reader, channel);
        List<JsonNode> first = sync.page(3);
        assertThat(first).hasSize(3);
        assertThat(sync.midSession).isTrue();
        List<JsonNode> second = sync.page(3);
        assertThat(second).hasSize(2);
        assertThat(sync.midSession).isFalse();
        assertThat(sync.store.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        tasks.stream().map(UUID::toString).toList());
    }

    @Test
    void scopedPagesOfExactlyOneHundredAndThree() {
        UUID channel = writer.channel(owner, "open");
        List<UUID> tasks = writer.createMany(owner, channel, 103);
        SyncingClient sync = client(reader, channel);
        assertThat(sync.page(null))
                .hasSize(100)
                .allMatch(e -> e.get("op").asText().equals("upsert"));
        assertThat(sync.midSession).isTrue();
        assertThat(sync.page(null))
                .hasSize(3)
                .allMatch(e -> e.get("op").asText().equals("upsert"));
        assertThat(sync.midSession).isFalse();
        assertThat(sync.store).hasSize(103);
        assertThat(sync.store.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        tasks.stream().map(UUID::toString).toList());
    }

    @Test
    void oneHundredAndOneMoveRemovalsAcrossPages() {
        UUID from = writer.channel(owner, "open");
        UUID to = writer.channel(owner, "private");
        List<UUID> tasks = writer.createMany(owner, from, 101);
        SyncingClient sync = client(reader, from);
        sync.session();
        assertThat(sync.store).hasSize(101);
        tasks.forEach(d -> writer.move(owner, d, to));
        List<JsonNode> first = sync.page(null);
        assertThat(first).hasSize(100);
        assertThat(sync.midSession).isTrue();
        List<JsonNode> rest = sync.session();
        assertThat(rest).as("a continuation does not rewind into the overlap").hasSize(1);
        Map<String, String> all = ops(first);
        all.putAll(ops(rest));
        tasks.forEach(d -> assertThat(all).containsEntry(d.toString(), "remove:moved"));
        assertThat(sync.store).isEmpty();
    }

    @Test
    void cursorsHoldNoRevisionIds() {
        UUID channel = writer.channel(owner, "open");
        List<UUID> tasks = writer.createMany(owner, channel, 3);
        SyncingClient sync = client(reader, channel);
        sync.page(1);
        String cursor = sync.cursor;
        byte[] decoded = java.util.Base64.getUrlDecoder().decode(cursor);
        String hex = chat.buzz.protocol.Hex.encode(decoded);
        String latin = new String(decoded, java.nio.charset.StandardCharsets.ISO_8859_1);
        for (UUID d : tasks) {
            String revision = writer.heads.get(d);
            assertThat(hex).doesNotContain(revision).doesNotContain(revision.substring(0, 16));
            assertThat(latin).doesNotContain(revision.substring(0, 16));
        }
        assertThat(hex).doesNotContain(channel.toString().replace("-", ""));
    }
}
