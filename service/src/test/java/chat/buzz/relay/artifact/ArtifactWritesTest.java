package chat.buzz.relay.artifact;

import static chat.buzz.relay.testing.Nostr.createChannel;
import static chat.buzz.relay.testing.Nostr.membership;
import static chat.buzz.relay.testing.Nostr.newId;
import static chat.buzz.relay.testing.Nostr.redact;
import static chat.buzz.relay.testing.Nostr.revision;
import static chat.buzz.relay.testing.Nostr.sign;
import static chat.buzz.relay.testing.Nostr.tag;
import static chat.buzz.relay.testing.Replies.accepted;
import static chat.buzz.relay.testing.Replies.rejected;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.Concurrently;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.RelayClient.Reply;
import chat.buzz.relay.testing.TestRelay;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PROTOCOL 3.2–3.4 over signed HTTP: compare-and-set, moves, delete and restore, redaction. */
@IntegrationTest
class ArtifactWritesTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private static final String RELAY_PUBKEY =
            NostrKeys.fromSecretHex("0".repeat(63) + "3").publicKeyHex();

    private final NostrKeys alice = NostrKeys.generate();
    private final NostrKeys bob = NostrKeys.generate();
    private final RelayClient client = RELAY.client();

    @Test
    void createEditAndReadBackWithCurrent() {
        UUID channel = channel(alice, "open");
        UUID d = newId();
        Event created = revision(alice, d, channel, "create", null, "first");
        Reply reply = client.publish(alice, created);
        accepted(reply);
        assertThat(reply.json().get("event_id").asText()).isEqualTo(created.id());

        Event edited = revision(alice, d, channel, "update", created.id(), "second");
        accepted(client.publish(alice, edited));

        JsonNode heads = current(alice, "\"#d\":[\"" + d + "\"]");
        assertThat(heads).hasSize(1);
        assertThat(heads.get(0).get("id").asText()).isEqualTo(edited.id());
        assertThat(Event.fromJson(heads.get(0))).isEqualTo(edited);
    }

    @Test
    void staleOrMissingPrevConflicts() {
        UUID channel = channel(alice, "open");
        UUID d = newId();
        Event created = revision(alice, d, channel, "create", null, "first");
        accepted(client.publish(alice, created));
        accepted(client.publish(alice, revision(alice, d, channel, "update", created.id(), "second")));
        rejected(
                client.publish(alice, revision(alice, d, channel, "update", created.id(), "third")),
                409,
                "conflict: artifact head changed");
        rejected(
                client.publish(alice, revision(alice, d, channel, "create", null, "again")),
                409,
                "conflict: artifact already exists");
        rejected(
                client.publish(alice, revision(alice, d, channel, "update", null, "no prev")),
                400,
                "invalid: missing prev tag");
    }

    /**
     * PROTOCOL 3: a create whose d is taken in a channel the writer cannot read is refused exactly as a
     * create into an inaccessible channel, so the refusal confirms nothing; a writer who can read that
     * channel is told of the conflict. Nothing of a refused create is stored.
     */
    @Test
    void aCreateOnAnIdTakenWhereTheWriterCannotReadConfirmsNothing() {
        UUID hidden = channel(alice, "private");
        UUID bobs = channel(bob, "open");
        UUID d = newId();
        Event original = revision(alice, d, hidden, "create", null, "alice's secret");
        accepted(client.publish(alice, original));

        Event onTakenId = revision(bob, d, bobs, "create", null, "guess");
        Reply taken = client.publish(bob, onTakenId);
        Reply inaccessible = client.publish(bob, revision(bob, newId(), hidden, "create", null, "into hidden"));
        rejected(taken, 403, "blocked: ");
        assertThat(taken.message()).isEqualTo(inaccessible.message());
        assertThat(taken.json().size()).isEqualTo(inaccessible.json().size());
        assertThat(count("SELECT count(*) FROM events WHERE id = :value", onTakenId.id()))
                .isZero();
        JsonNode heads = current(alice, "\"#d\":[\"" + d + "\"]");
        assertThat(heads).hasSize(1);
        assertThat(heads.get(0).get("id").asText()).isEqualTo(original.id());

        accepted(client.publish(alice, membership(alice, Kinds.ADD_MEMBER, hidden, bob.publicKeyHex(), null)));
        rejected(
                client.publish(bob, revision(bob, d, bobs, "create", null, "now readable")),
                409,
                "conflict: artifact already exists");
    }

    @Test
    void ofTwoConcurrentEditsOnOneHeadExactlyOneWins() throws Exception {
        UUID channel = channel(alice, "open");
        UUID d = newId();
        Event created = revision(alice, d, channel, "create", null, "first");
        accepted(client.publish(alice, created));
        int writers = 8;
        List<Event> edits = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            edits.add(revision(alice, d, channel, "update", created.id(), "edit " + i));
        }
        List<Reply> replies = Concurrently.run(edits.stream()
                .map(edit -> (java.util.concurrent.Callable<Reply>) () -> client.publish(alice, edit))
                .toList());
        assertThat(replies.stream().filter(r -> r.status() == 200)).hasSize(1);
        assertThat(replies.stream().filter(r -> r.status() == 409))
                .hasSize(writers - 1)
                .allSatisfy(r -> assertThat(r.message()).isEqualTo("conflict: artifact head changed"));
        String winner = replies.stream()
                .filter(r -> r.status() == 200)
                .findFirst()
                .orElseThrow()
                .json()
                .get("event_id")
                .asText();
        assertThat(current(alice, "\"#d\":[\"" + d + "\"]").get(0).get("id").asText())
                .isEqualTo(winner);
        assertThat(count("SELECT count(*) FROM artifact_revisions WHERE d = CAST(:value AS uuid)", d))
                .isEqualTo(2);
    }

    @Test
    void aMoveLeavesARelaySignedMarkerInTheOldChannel() {
        UUID from = channel(alice, "open");
        UUID to = channel(alice, "private");
        UUID d = newId();
        Event created = revision(alice, d, from, "create", null, "task");
        accepted(client.publish(alice, created));
        rejected(
                client.publish(alice, revision(alice, d, to, "update", created.id(), "task")),
                400,
                "invalid: only a move may change h");
        rejected(
                client.publish(alice, revision(alice, d, from, "move", created.id(), "task")),
                400,
                "invalid: a move must change h");
        Event moved = revision(alice, d, to, "move", created.id(), "task");
        accepted(client.publish(alice, moved));

        String markerJson = RELAY.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT e.json FROM artifact_revisions r JOIN events e ON e.id = r.event_id WHERE r.d = :d AND r.kind = :kind")
                        .bind("d", d)
                        .bind("kind", Kinds.REMOVAL_MARKER)
                        .mapTo(String.class)
                        .one());
        Event marker = Event.parse(markerJson);
        assertThat(marker.pubkey()).isEqualTo(RELAY_PUBKEY);
        assertThat(marker.hasValidSignature()).isTrue();
        assertThat(marker.content()).isEmpty();
        assertThat(marker.tags())
                .containsExactly(
                        List.of(Tags.ARTIFACT_FLAG, "1"),
                        List.of(Tags.ARTIFACT_ID, d.toString()),
                        List.of(Tags.CHANNEL, from.toString()),
                        List.of(Tags.REMOVAL_REASON, "moved"),
                        List.of(Tags.PREVIOUS_REVISION, created.id()));
        assertThat(current(alice, "\"#h\":[\"" + from + "\"]")).isEmpty();
        assertThat(current(alice, "\"#h\":[\"" + to + "\"]").get(0).get("id").asText())
                .isEqualTo(moved.id());
    }

    @Test
    void aMoveNeedsWriteAccessToBothChannels() {
        UUID from = channel(alice, "open");
        UUID bobsPrivate = channel(bob, "private");
        UUID d = newId();
        Event created = revision(alice, d, from, "create", null, "task");
        accepted(client.publish(alice, created));
        rejected(
                client.publish(alice, revision(alice, d, bobsPrivate, "move", created.id(), "task")),
                403,
                "blocked: no write access to the destination channel");
        UUID alicesPrivate = channel(alice, "private");
        UUID d2 = newId();
        Event secret = revision(alice, d2, alicesPrivate, "create", null, "secret");
        accepted(client.publish(alice, secret));
        rejected(
                client.publish(bob, revision(bob, d2, bobsPrivate, "move", secret.id(), "secret")),
                403,
                "blocked: artifact not found or not writable");
    }

    @Test
    void onlyRestoreFollowsDelete() {
        UUID channel = channel(alice, "open");
        UUID d = newId();
        Event created = revision(alice, d, channel, "create", null, "task");
        accepted(client.publish(alice, created));
        rejected(
                client.publish(alice, revision(alice, d, channel, "restore", created.id(), "task")),
                409,
                "conflict: only a deleted artifact can be restored");
        rejected(
                client.publish(alice, revision(alice, d, channel, "delete", created.id(), "has a title")),
                400,
                "invalid: a delete carries no title");
        Event deleted = revision(alice, d, channel, "delete", created.id(), null);
        accepted(client.publish(alice, deleted));
        assertThat(current(alice, "\"#d\":[\"" + d + "\"]")).isEmpty();
        rejected(
                client.publish(alice, revision(alice, d, channel, "update", deleted.id(), "task")),
                409,
                "conflict: artifact is deleted");
        Event restored = revision(alice, d, channel, "restore", deleted.id(), "task");
        accepted(client.publish(alice, restored));
        assertThat(current(alice, "\"#d\":[\"" + d + "\"]").get(0).get("id").asText())
                .isEqualTo(restored.id());
    }

    @Test
    void redactingTheHeadHidesTheArtifactUntilANewRevisionNamesIt() {
        UUID channel = channel(alice, "open");
        UUID d = newId();
        Event created = revision(alice, d, channel, "create", null, "task");
        accepted(client.publish(alice, created));
        rejected(
                client.publish(bob, redact(bob, channel, created.id())),
                403,
                "blocked: only owners, admins or the author");
        accepted(client.publish(alice, redact(alice, channel, created.id())));
        assertThat(current(bob, "\"#d\":[\"" + d + "\"]")).isEmpty();
        assertThat(count("SELECT count(*) FROM artifact_revisions WHERE event_id = :value", created.id()))
                .as("the acceptance ledger outlives redaction")
                .isEqualTo(1);
        Event next = revision(alice, d, channel, "update", created.id(), "task again");
        accepted(client.publish(alice, next));
        assertThat(current(bob, "\"#d\":[\"" + d + "\"]").get(0).get("id").asText())
                .isEqualTo(next.id());
    }

    @Test
    void ownersRedactOthersRevisionsAndRedactionNamesTheRightChannel() {
        UUID channel = channel(alice, "open");
        UUID other = channel(alice, "open");
        UUID d = newId();
        Event byBob = revision(bob, d, channel, "create", null, "bob's");
        accepted(client.publish(bob, byBob));
        rejected(client.publish(alice, redact(alice, other, byBob.id())), 400, "invalid: h must name the channel");
        rejected(client.publish(alice, redact(alice, channel, "f".repeat(64))), 403, "blocked: revision not found");
        accepted(client.publish(alice, redact(alice, channel, byBob.id())));
    }

    @Test
    void revisionTagsAreValidated() {
        UUID channel = channel(alice, "open");
        String d = newId().toString();
        String h = channel.toString();
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "2"),
                        tag(Tags.ARTIFACT_ID, d),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "task.v1"),
                        tag(Tags.OPERATION, "create"),
                        tag(Tags.TITLE, "t")),
                400,
                "invalid: tag ar must be 1");
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d.toUpperCase()),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "task.v1"),
                        tag(Tags.OPERATION, "create"),
                        tag(Tags.TITLE, "t")),
                400,
                "invalid: tag d must be a lowercase hyphenated UUID");
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "task"),
                        tag(Tags.OPERATION, "create"),
                        tag(Tags.TITLE, "t")),
                400,
                "invalid: type must be");
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "t." + "x".repeat(127)),
                        tag(Tags.OPERATION, "create"),
                        tag(Tags.TITLE, "t")),
                400,
                "invalid: type must be");
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "task.v1"),
                        tag(Tags.OPERATION, "create"),
                        tag(Tags.TITLE, "")),
                400,
                "invalid: title must be 1..512 bytes");
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "task.v1"),
                        tag(Tags.OPERATION, "create"),
                        tag(Tags.TITLE, "é".repeat(257))),
                400,
                "invalid: title must be 1..512 bytes");
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "task.v1"),
                        tag(Tags.OPERATION, "archive"),
                        tag(Tags.TITLE, "t")),
                400,
                "invalid: op must be");
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "task.v1"),
                        tag(Tags.OPERATION, "create"),
                        tag(Tags.TITLE, "t"),
                        tag(Tags.PREVIOUS_REVISION, "a".repeat(64))),
                400,
                "invalid: a create has no prev");
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "task.v1"),
                        tag(Tags.OPERATION, "update"),
                        tag(Tags.TITLE, "t"),
                        tag(Tags.PREVIOUS_REVISION, "XYZ")),
                400,
                "invalid: tag prev must be");
        rejected(
                publish(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d),
                        tag(Tags.CHANNEL, h),
                        tag(Tags.ARTIFACT_TYPE, "task.v1"),
                        tag(Tags.ARTIFACT_TYPE, "task.v2"),
                        tag(Tags.OPERATION, "create"),
                        tag(Tags.TITLE, "t")),
                400,
                "invalid: tag type appears more than once");
        assertThat(count("SELECT count(*) FROM artifact_heads WHERE d = CAST(:value AS uuid)", d))
                .isZero();
    }

    @Test
    void theTypeNeverChanges() {
        UUID channel = channel(alice, "open");
        UUID d = newId();
        Event created = revision(alice, d, channel, "create", null, "task");
        accepted(client.publish(alice, created));
        Event retyped = sign(
                alice,
                Kinds.ARTIFACT_REVISION,
                List.of(
                        tag(Tags.ARTIFACT_FLAG, "1"),
                        tag(Tags.ARTIFACT_ID, d.toString()),
                        tag(Tags.CHANNEL, channel.toString()),
                        tag(Tags.ARTIFACT_TYPE, "note.v1"),
                        tag(Tags.OPERATION, "update"),
                        tag(Tags.TITLE, "t"),
                        tag(Tags.PREVIOUS_REVISION, created.id())),
                "");
        rejected(client.publish(alice, retyped), 400, "invalid: type never changes");
    }

    @Test
    void privateChannelsTakeWritesFromActiveMembersOnly() {
        UUID channel = channel(alice, "private");
        rejected(
                client.publish(bob, revision(bob, newId(), channel, "create", null, "t")),
                403,
                "blocked: channel not found or not writable");
        accepted(client.publish(alice, membership(alice, Kinds.ADD_MEMBER, channel, bob.publicKeyHex(), null)));
        accepted(client.publish(bob, revision(bob, newId(), channel, "create", null, "t")));
    }

    @SafeVarargs
    private Reply publish(List<String>... tags) {
        return client.publish(alice, sign(alice, Kinds.ARTIFACT_REVISION, List.of(tags), ""));
    }

    private UUID channel(NostrKeys owner, String visibility) {
        UUID channel = newId();
        accepted(client.publish(owner, createChannel(owner, channel, visibility)));
        return channel;
    }

    private JsonNode current(NostrKeys reader, String filter) {
        Reply reply = client.query(reader, "[{\"artifact\":\"current\"," + filter + "}]");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    /** Counts rows where one column equals {@code value}, bound as {@code :value}. */
    private static long count(String sql, Object value) {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery(sql)
                        .bind("value", value)
                        .mapTo(Long.class)
                        .one());
    }
}
