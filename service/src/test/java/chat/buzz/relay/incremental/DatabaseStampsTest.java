package chat.buzz.relay.incremental;

import static chat.buzz.relay.testing.Nostr.tag;
import static org.assertj.core.api.Assertions.assertThat;

import chat.buzz.protocol.Event;
import chat.buzz.protocol.Kinds;
import chat.buzz.protocol.NostrKeys;
import chat.buzz.protocol.Tags;
import chat.buzz.relay.testing.IntegrationTest;
import chat.buzz.relay.testing.Nostr;
import chat.buzz.relay.testing.RelayClient;
import chat.buzz.relay.testing.Replies;
import chat.buzz.relay.testing.TestRelay;
import java.time.OffsetDateTime;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Migrations 0076/0077 keep the change stamps with triggers: each moves exactly when a reader could see
 * a difference, and not otherwise. Writes go through signed HTTP; the stamps are read from the database.
 */
@IntegrationTest
class DatabaseStampsTest {
    @RegisterExtension
    static final TestRelay RELAY = TestRelay.create();

    private final RelayClient relay = RELAY.client();
    private final NostrKeys owner = NostrKeys.generate();
    private final NostrKeys member = NostrKeys.generate();

    @Test
    void policyStampAdvancesOnRealPolicyChangesOfAnArtifactLessChannelOnly() {
        UUID channel = Nostr.newId();
        accept(Nostr.createChannel(owner, channel, "open"));
        OffsetDateTime created = policyStamp();

        accept(Nostr.editChannel(owner, channel, tag(Tags.VISIBILITY, "open")));
        assertThat(policyStamp()).as("no-op edit").isEqualTo(created);
        accept(Nostr.editChannel(owner, channel, tag(Tags.CHANNEL_NAME, "another name")));
        assertThat(policyStamp()).as("name-only edit").isEqualTo(created);
        assertThat(policyAdvances(channel)).isZero();

        accept(Nostr.editChannel(owner, channel, tag(Tags.VISIBILITY, "private")));
        OffsetDateTime madePrivate = policyStamp();
        assertThat(madePrivate).as("visibility change").isAfter(created);
        accept(Nostr.editChannel(
                owner, channel, tag(Tags.VISIBILITY, "private"), tag(Tags.CHANNEL_NAME, "third name")));
        assertThat(policyStamp()).as("same visibility and a new name").isEqualTo(madePrivate);

        accept(Nostr.editChannel(owner, channel, tag(Tags.TTL, "3600")));
        OffsetDateTime ttlSet = policyStamp();
        assertThat(ttlSet).as("ttl change").isAfter(madePrivate);
        accept(Nostr.editChannel(owner, channel, tag(Tags.TTL, "3600")));
        assertThat(policyStamp()).as("same ttl").isEqualTo(ttlSet);

        accept(Nostr.editChannel(owner, channel, tag(Tags.VISIBILITY, "open"), tag(Tags.UNLISTED, "true")));
        OffsetDateTime unlisted = policyStamp();
        assertThat(unlisted).as("visibility and unlisted change").isAfter(ttlSet);

        accept(Nostr.event(owner, Kinds.DELETE_CHANNEL, tag(Tags.CHANNEL, channel.toString())));
        assertThat(policyStamp()).as("deletion").isAfter(unlisted);
        // The operations record agrees: one cause per advance, none for the no-op and name-only edits.
        assertThat(policyAdvances(channel)).isEqualTo(4);
    }

    @Test
    void syncStampMovesWhenAMembershipStartsEndsOrRestartsButNotOnARoleChange() {
        UUID channel = Nostr.newId();
        accept(Nostr.createChannel(owner, channel, "private"));
        accept(Nostr.membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), "member"));
        OffsetDateTime added = syncStamp(channel);

        accept(Nostr.membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), "admin"));
        assertThat(role(channel)).isEqualTo("admin");
        assertThat(syncStamp(channel)).as("role-only change").isEqualTo(added);

        accept(Nostr.membership(owner, Kinds.REMOVE_MEMBER, channel, member.publicKeyHex(), null));
        OffsetDateTime removed = syncStamp(channel);
        assertThat(removed).as("removal").isAfter(added);

        accept(Nostr.membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), "member"));
        OffsetDateTime readded = syncStamp(channel);
        assertThat(readded).as("re-add").isAfter(removed);
        accept(Nostr.membership(owner, Kinds.ADD_MEMBER, channel, member.publicKeyHex(), "admin"));
        assertThat(syncStamp(channel)).as("role-only change after a re-add").isEqualTo(readded);
    }

    @Test
    void headStampMovesOnEveryHeadChangeAndOnRedactingTheHeadOnly() {
        UUID channel = Nostr.newId();
        accept(Nostr.createChannel(owner, channel, "open"));
        UUID d = Nostr.newId();
        Event first = accept(Nostr.revision(owner, d, channel, "create", null, "first"));
        OffsetDateTime created = headStamp(d);

        Event second = accept(Nostr.revision(owner, d, channel, "update", first.id(), "second"));
        OffsetDateTime updated = headStamp(d);
        assertThat(updated).as("update").isAfter(created);

        accept(Nostr.redact(owner, channel, first.id()));
        assertThat(headStamp(d)).as("redacting a revision that is not the head").isEqualTo(updated);

        accept(Nostr.redact(owner, channel, second.id()));
        assertThat(headStamp(d)).as("redacting the head").isAfter(updated);
    }

    private Event accept(Event event) {
        Replies.accepted(relay.publish(owner, event));
        return event;
    }

    private OffsetDateTime policyStamp() {
        return RELAY.jdbi()
                .withHandle(
                        h -> h.createQuery("SELECT artifact_policy_modified_at FROM communities WHERE name = 'test'")
                                .mapTo(OffsetDateTime.class)
                                .one());
    }

    private long policyAdvances(UUID channel) {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT count(*) FROM policy_stamp_advances WHERE channel_id = :c")
                        .bind("c", channel)
                        .mapTo(Long.class)
                        .one());
    }

    private OffsetDateTime syncStamp(UUID channel) {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT sync_modified_at FROM channel_members WHERE channel_id = :c AND pubkey = :p")
                        .bind("c", channel)
                        .bind("p", member.publicKeyHex())
                        .mapTo(OffsetDateTime.class)
                        .one());
    }

    private String role(UUID channel) {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery(
                                "SELECT role FROM channel_members WHERE channel_id = :c AND pubkey = :p AND removed_at IS NULL")
                        .bind("c", channel)
                        .bind("p", member.publicKeyHex())
                        .mapTo(String.class)
                        .one());
    }

    private OffsetDateTime headStamp(UUID d) {
        return RELAY.jdbi()
                .withHandle(h -> h.createQuery("SELECT modified_at FROM artifact_heads WHERE d = :d")
                        .bind("d", d)
                        .mapTo(OffsetDateTime.class)
                        .one());
    }
}
