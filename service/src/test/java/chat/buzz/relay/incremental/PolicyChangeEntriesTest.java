package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.PolicyChangeKinds;
import chat.buzz.relay.testing.PolicyChangeKinds.Change;
import chat.buzz.relay.testing.PolicyChangeKinds.Heard;
import chat.buzz.relay.testing.PolicyChangeKinds.ReaderKind;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PROTOCOL 4.4 with gate SCOPED_POLICY on, over signed HTTP: for every kind of channel policy change
 * ({@link PolicyChangeKinds}) and every kind of reader, the next delta holds exactly the entries the
 * table says (an upsert with the head for each artifact that entered D, a remove with reason
 * unavailable and no channel for each that left it, nothing when D did not change), no page is a
 * reset, the policy stamp does not move, and no cursor names an artifact the reader was not given.
 */
@IntegrationTest
class PolicyChangeEntriesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create(
            ConfigOverride.config("gates.incremental", "true"), ConfigOverride.config("gates.scopedPolicy", "true"));

    private static final int ARTIFACTS = 3;

    private final RelayClient relay = RELAY.client();
    private final Writer writer = new Writer(relay);
    private final NostrKeys owner = NostrKeys.generate();

    static List<Change> changes() {
        return PolicyChangeKinds.all();
    }

    /** A reader's client that records the stamp of every answer and fails on a reset or a repeated id. */
    static final class Reader {
        final ReaderKind kind;
        final SyncingClient sync;
        final List<String> stamps = new ArrayList<>();

        Reader(TestRelay relay, ReaderKind kind, NostrKeys keys, UUID channel) {
            this.kind = kind;
            this.sync = new SyncingClient(relay.client(), keys, kind.scoped ? List.of(channel.toString()) : List.of())
                    .openingCursors(SealedCursors.of(relay));
            sync.inspector = body -> {
                stamps.add(body.get("policy").asText());
                assertThat(body.path("reset").asBoolean(false))
                        .as("%s: a policy change delivered as entries resets nobody: %s", kind, body)
                        .isFalse();
                Set<String> named = new java.util.HashSet<>();
                body.path("entries")
                        .forEach(entry -> assertThat(named.add(entry.get("d").asText()))
                                .as("%s: a page names %s twice", kind, entry)
                                .isTrue());
            };
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void eachReaderHearsExactlyWhatEnteredOrLeftItsD(Change change) {
        UUID channel = newChannel(change);
        NostrKeys member = NostrKeys.generate();
        NostrKeys outsider = NostrKeys.generate();
        writer.addMember(owner, channel, member);
        List<UUID> artifacts = writer.createMany(owner, channel, ARTIFACTS);
        Map<ReaderKind, Reader> readers = new EnumMap<>(ReaderKind.class);
        for (ReaderKind kind : ReaderKind.values()) {
            readers.put(kind, new Reader(RELAY, kind, kind.member ? member : outsider, channel));
        }
        readers.values().forEach(reader -> {
            if (reader.kind.scoped && change.heard(reader.kind) == Heard.REFUSED_BEFORE) {
                assertTtlRefusal(reader, channel);
            } else {
                reader.sync.session();
            }
        });
        String stamp = policyStamp();

        writer.accept(owner, change.change(owner, channel));

        assertThat(policyStamp()).as("the policy stamp of the community").isEqualTo(stamp);
        for (Reader reader : readers.values()) {
            Heard heard = change.heard(reader.kind);
            String as = change.name() + ", " + reader.kind;
            switch (heard) {
                case REFUSED_AFTER -> assertTtlRefusal(reader, channel);
                case REFUSED_BEFORE -> {
                    List<JsonNode> bootstrap = reader.sync.session();
                    assertThat(ops(bootstrap)).as(as).isEqualTo(expected(artifacts, "upsert"));
                }
                default -> {
                    List<JsonNode> delta = reader.sync.session();
                    assertThat(ops(delta))
                            .as(as)
                            .isEqualTo(
                                    switch (heard) {
                                        case UPSERT -> expected(artifacts, "upsert");
                                        case REMOVE -> expected(artifacts, "remove:unavailable");
                                        default -> Map.of();
                                    });
                    assertEntryShapes(delta, channel, as);
                    assertThat(reader.stamps).as(as + ": every answer's stamp").containsOnly(stamp);
                    assertThat(reader.sync.resets).as(as).isZero();
                }
            }
        }
    }

    /**
     * A non-member's channel goes private and back to open between two of its sessions: the settings
     * history says the reader could have held the artifacts all along, so a head edited while private
     * comes back as an upsert of the new head, one deleted while private as a remove with reason deleted
     * (the reader can read the channel again), and nothing resets.
     */
    @Test
    void openPrivateOpenWithinOneWindowForANonMember() {
        UUID channel = writer.channel(owner, "open");
        UUID edited = writer.create(owner, channel);
        UUID deleted = writer.create(owner, channel);
        UUID untouched = writer.create(owner, channel);
        Reader outsider = new Reader(RELAY, ReaderKind.OUTSIDER_SCOPED, NostrKeys.generate(), channel);
        outsider.sync.session();
        assertThat(outsider.sync.store).containsOnlyKeys(edited.toString(), deleted.toString(), untouched.toString());
        String stamp = policyStamp();

        writer.editChannel(owner, channel, tag(Tags.VISIBILITY, "private"));
        Event edit = writer.edit(owner, edited, "edited while private");
        writer.delete(owner, deleted);
        writer.editChannel(owner, channel, tag(Tags.VISIBILITY, "open"));

        List<JsonNode> delta = outsider.sync.session();
        Map<String, String> ops = ops(delta);
        assertThat(ops).containsEntry(edited.toString(), "upsert").containsEntry(deleted.toString(), "remove:deleted");
        assertThat(ops.get(untouched.toString()))
                .as("an artifact whose head did not change: nothing, or an upsert of the same head")
                .isIn(null, "upsert");
        assertThat(outsider.sync.heads())
                .isEqualTo(Map.of(edited.toString(), edit.id(), untouched.toString(), writer.heads.get(untouched)));
        assertThat(outsider.stamps).containsOnly(stamp);
        assertThat(outsider.sync.resets).isZero();
    }

    /**
     * A former member of a private channel, already told that its artifacts left, and then the channel
     * is deleted or made open and unlisted: without a scope its D does not change, so it hears nothing
     * (PROTOCOL 4.4), whatever it could have held earlier in the window; a scope naming the channel
     * gets the artifacts back when the channel is open again.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("laterChanges")
    void aFormerMemberAlreadyToldHearsNothingOfALaterChangeThatLeavesItsD(
            String name, List<List<String>> edit, String scopedHears) {
        UUID channel = writer.channel(owner, "private");
        NostrKeys former = NostrKeys.generate();
        writer.addMember(owner, channel, former);
        List<UUID> artifacts = writer.createMany(owner, channel, ARTIFACTS);
        Reader unscoped = new Reader(RELAY, ReaderKind.MEMBER, former, channel);
        Reader scoped = new Reader(RELAY, ReaderKind.MEMBER_SCOPED, former, channel);
        List<Reader> readers = List.of(unscoped, scoped);
        readers.forEach(reader -> reader.sync.session());
        writer.removeMember(owner, channel, former);
        for (Reader reader : readers) {
            assertThat(ops(reader.sync.session()))
                    .as("%s", reader.kind)
                    .isEqualTo(expected(artifacts, "remove:unavailable"));
        }
        String stamp = policyStamp();

        if (edit == null) {
            writer.deleteChannel(owner, channel);
        } else {
            @SuppressWarnings("unchecked")
            List<String>[] tags = edit.toArray(List[]::new);
            writer.editChannel(owner, channel, tags);
        }

        assertThat(ops(unscoped.sync.session())).as("%s, unscoped", name).isEmpty();
        assertThat(ops(scoped.sync.session()))
                .as("%s, scoped", name)
                .isEqualTo(scopedHears == null ? Map.of() : expected(artifacts, scopedHears));
        readers.forEach(reader -> assertThat(reader.stamps).containsOnly(stamp));
    }

    /**
     * A reader that bootstrapped after an open channel went private never held its artifacts: when the
     * channel is then deleted its D does not change, so its delta names none of them (PROTOCOL 4.4).
     */
    @Test
    void aReaderThatNeverHeldTheArtifactsHearsNothingWhenTheChannelIsDeleted() {
        UUID channel = writer.channel(owner, "open");
        List<UUID> artifacts = writer.createMany(owner, channel, ARTIFACTS);
        writer.editChannel(owner, channel, tag(Tags.VISIBILITY, "private"));
        Reader late = new Reader(RELAY, ReaderKind.OUTSIDER, NostrKeys.generate(), channel);
        late.sync.session();
        assertThat(late.sync.store)
                .doesNotContainKeys(artifacts.stream().map(UUID::toString).toArray(String[]::new));

        writer.deleteChannel(owner, channel);

        assertThat(ops(late.sync.session())).isEmpty();
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> laterChanges() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("channel deleted", null, null),
                org.junit.jupiter.params.provider.Arguments.of(
                        "made open and unlisted",
                        List.of(tag(Tags.VISIBILITY, "open"), tag(Tags.UNLISTED, "true")),
                        "upsert"));
    }

    private void assertTtlRefusal(Reader reader, UUID channel) {
        String since = reader.sync.cursor == null ? "" : ",\"since\":\"" + reader.sync.cursor + "\"";
        RelayClient.Reply reply = relay.query(
                reader.sync.keys, "[{\"artifact\":\"incremental\",\"#h\":[\"" + channel + "\"]" + since + "}]");
        assertThat(reply.status()).as("%s", reply).isEqualTo(422);
        assertThat(reply.error()).isEqualTo("incremental_ttl_channel");
        assertThat(reply.json().get("channel").asText()).isEqualTo(channel.toString());
    }

    /** PROTOCOL 4.1: an upsert carries its channel and head, a remove only d and its reason (no h). */
    private void assertEntryShapes(List<JsonNode> entries, UUID channel, String as) {
        for (JsonNode entry : entries) {
            if (entry.get("op").asText().equals("upsert")) {
                assertThat(entry.get("h").asText()).as(as).isEqualTo(channel.toString());
                assertThat(entry.get("event").get("id").asText())
                        .as(as)
                        .isEqualTo(
                                writer.heads.get(UUID.fromString(entry.get("d").asText())));
            } else {
                assertThat(entry.has("h"))
                        .as("%s: a remove names no channel: %s", as, entry)
                        .isFalse();
                assertThat(entry.has("event")).as("%s: %s", as, entry).isFalse();
            }
        }
    }

    private String policyStamp() {
        return new SyncingClient(relay, owner, List.of())
                .knownIdsReply(List.of(UUID.randomUUID().toString()))
                .get("policy")
                .asText();
    }

    static Map<String, String> expected(List<UUID> artifacts, String op) {
        return artifacts.stream().collect(Collectors.toMap(UUID::toString, d -> op));
    }

    static Map<String, String> ops(List<JsonNode> entries) {
        return entries.stream()
                .collect(Collectors.toMap(
                        e -> e.get("d").asText(),
                        e -> e.get("op").asText()
                                + (e.has("reason") ? ":" + e.get("reason").asText() : ""),
                        (a, b) -> {
                            throw new AssertionError("a session named an artifact twice: " + a + ", " + b);
                        }));
    }

    /** The table's channel, created with the settings it has before the change. */
    private UUID newChannel(Change change) {
        UUID channel = UUID.randomUUID();
        writer.accept(owner, change.create(owner, channel));
        return channel;
    }
}
